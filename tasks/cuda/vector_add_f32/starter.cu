#include "arena_signature.h"

// vector_add_f32 starter: one thread per element, scalar loads, 256 threads per block.
// Correct for every n (the last block is guarded); make it faster.

__global__ void vector_add_kernel(const float* a, const float* b, float* out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 256;
  const int64_t blocks = (n + threads - 1) / threads;  // <= 2^20 for n <= 2^28: fits gridDim.x
  vector_add_kernel<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(a, b, out, n);
}
