#include "arena_signature.h"

// vector_add_f32 starter: one thread per element, scalar loads, 256 threads per block.
// Correct for every n (the last block is guarded); make it faster.

// Threads per block: a knob for `arena run --agent autotune` (every candidate is correct).
constexpr int kThreads = 256;  // arena-knob: 64 128 256 512 1024

__global__ void vector_add_kernel(const float* a, const float* b, float* out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  const int64_t blocks = (n + kThreads - 1) / kThreads;  // <= 2^22 for n <= 2^28: fits gridDim.x
  vector_add_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(a, b, out, n);
}
