#include "arena_signature.h"

// silu_mul_bf16 starter: one thread per element of the flattened [rows, cols] arrays, scalar
// bf16 loads and stores, expf in fp32, 256 threads per block. Correct for every shape (the last
// block is guarded); make it faster.

#include <math.h>

// Threads per block: a knob for `arena run --agent autotune` (every candidate is correct).
constexpr int kThreads = 256;  // arena-knob: 64 128 256 512 1024

__global__ void silu_mul_kernel(const __nv_bfloat16* gate, const __nv_bfloat16* up, __nv_bfloat16* out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float g = __bfloat162float(gate[i]);
  const float u = __bfloat162float(up[i]);
  out[i] = __float2bfloat16_rn(g / (1.0f + expf(-g)) * u);
}

extern "C" void silu_mul_bf16(const __nv_bfloat16* gate, const __nv_bfloat16* up, __nv_bfloat16* out, int64_t rows,
                              int64_t cols, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  const int64_t n = rows * cols;
  const int64_t blocks = (n + kThreads - 1) / kThreads;  // <= 2^24 for rows * cols <= 2^30: fits gridDim.x
  silu_mul_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(gate, up, out, n);
}
