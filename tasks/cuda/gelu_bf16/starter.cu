#include "arena_signature.h"

// gelu_bf16 starter: one thread per element, scalar bf16 loads and stores, erff in fp32,
// 256 threads per block. Correct for every n (the last block is guarded); make it faster.

#include <math.h>

// Threads per block: a knob for `arena run --agent autotune` (every candidate is correct).
constexpr int kThreads = 256;  // arena-knob: 64 128 256 512 1024

__global__ void gelu_kernel(const __nv_bfloat16* x, __nv_bfloat16* out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v = __bfloat162float(x[i]);
  out[i] = __float2bfloat16_rn(0.5f * v * (1.0f + erff(v * 0.70710678118654752f)));
}

extern "C" void gelu_bf16(const __nv_bfloat16* x, __nv_bfloat16* out, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  const int64_t blocks = (n + kThreads - 1) / kThreads;  // <= 2^24 for n <= 2^30: fits gridDim.x
  gelu_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(x, out, n);
}
