#include "arena_signature.h"

// histogram_u8 starter: clear the 256 counts (the judge fills `hist` with garbage before every
// call), then one thread per byte in a grid-stride loop does a global atomicAdd on its byte's
// bin. Scalar 1-byte loads, and every increment contends with all the others for the same 256
// words (the bins near the peak of the distribution most). Correct for every n; make it faster.

// Threads per block: a knob for `arena run --agent autotune` (every candidate is correct).
constexpr int kThreads = 256;  // arena-knob: 64 128 256 512 1024

__global__ void histogram_naive_kernel(const uint8_t* data, int32_t* hist, int64_t n) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&hist[data[i]], 1);
}

extern "C" void histogram_u8(const uint8_t* data, int32_t* hist, int64_t n, cudaStream_t stream) {
  cudaMemsetAsync(hist, 0, 256 * sizeof(int32_t), stream);  // counts start at zero, on `stream`
  if (n <= 0) return;
  int64_t blocks = (n + kThreads - 1) / kThreads;
  if (blocks > 65535 * 16) blocks = 65535 * 16;  // the grid-stride loop covers the rest
  histogram_naive_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(data, hist, n);
}
