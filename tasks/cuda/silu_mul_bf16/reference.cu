#include "arena_signature.h"

// silu_mul_bf16 reference: silu(g) · u = g / (1 + exp(-g)) · u in double, narrowed to fp32 and
// rounded once to bf16 (nearest even), as the CPU host reference does. A capped grid with a
// grid-stride loop covers any shape.

#include <math.h>

__global__ void reference_silu_mul(const __nv_bfloat16* __restrict__ gate, const __nv_bfloat16* __restrict__ up,
                                   __nv_bfloat16* __restrict__ out, int64_t n) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const double g = static_cast<double>(__bfloat162float(gate[i]));
    const double u = static_cast<double>(__bfloat162float(up[i]));
    out[i] = __float2bfloat16_rn(static_cast<float>(g / (1.0 + exp(-g)) * u));
  }
}

extern "C" void silu_mul_bf16(const __nv_bfloat16* gate, const __nv_bfloat16* up, __nv_bfloat16* out, int64_t rows,
                              int64_t cols, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  const int64_t n = rows * cols;
  const int threads = 256;
  int64_t blocks = (n + threads - 1) / threads;
  if (blocks > 16384) blocks = 16384;
  reference_silu_mul<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(gate, up, out, n);
}
