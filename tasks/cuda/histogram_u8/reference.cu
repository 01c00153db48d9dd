#include "arena_signature.h"

// histogram_u8 reference: a clearing kernel writes 0 to all 256 bins, then each block counts its
// grid-stride share of the bytes in its own shared-memory bins (unsigned 32-bit: a block sees at
// most n <= 2^30 bytes) and adds them to the global bins with one atomicAdd per non-empty bin.
// Integer counts: the order of the additions cannot change the result.

__global__ void reference_histogram_clear(int32_t* hist) { hist[threadIdx.x] = 0; }

__global__ void reference_histogram_count(const uint8_t* __restrict__ data, int32_t* __restrict__ hist, int64_t n) {
  __shared__ unsigned int local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
  __syncthreads();
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    if (local[b] != 0) atomicAdd(&hist[b], static_cast<int32_t>(local[b]));
}

extern "C" void histogram_u8(const uint8_t* data, int32_t* hist, int64_t n, cudaStream_t stream) {
  reference_histogram_clear<<<1, 256, 0, stream>>>(hist);
  if (n <= 0) return;
  const int threads = 256;
  int64_t blocks = (n + threads - 1) / threads;
  if (blocks > 4096) blocks = 4096;
  reference_histogram_count<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(data, hist, n);
}
