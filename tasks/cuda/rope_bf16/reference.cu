#include "arena_signature.h"

// rope_bf16 reference: one thread per rotated pair, a grid-stride loop over all pairs.
// θ_i = 10000^(-2i/head_dim), the angle pos·θ_i, its cos and sin and both rotated outputs are
// computed in double; each output is narrowed to fp32 and rounded once to bf16 (nearest even), as
// the CPU reference does.

#include <math.h>

__global__ void reference_rope(const __nv_bfloat16* __restrict__ x, const int32_t* __restrict__ positions,
                               __nv_bfloat16* __restrict__ out, int64_t tokens, int64_t heads, int64_t head_dim) {
  const int64_t half = head_dim / 2;
  const int64_t pairs = tokens * heads * half;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t p = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < pairs; p += stride) {
    const int64_t i = p % half;
    const int64_t row = p / half;  // token * heads + head
    const int64_t t = row / heads;
    const double theta = pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(head_dim));
    const double angle = static_cast<double>(positions[t]) * theta;
    const double c = cos(angle), s = sin(angle);
    const __nv_bfloat16* xr = x + row * head_dim;
    __nv_bfloat16* yr = out + row * head_dim;
    const double x1 = static_cast<double>(__bfloat162float(xr[i]));
    const double x2 = static_cast<double>(__bfloat162float(xr[i + half]));
    yr[i] = __float2bfloat16_rn(static_cast<float>(x1 * c - x2 * s));
    yr[i + half] = __float2bfloat16_rn(static_cast<float>(x2 * c + x1 * s));
  }
}

extern "C" void rope_bf16(const __nv_bfloat16* x, const int32_t* positions, __nv_bfloat16* out, int64_t tokens,
                          int64_t heads, int64_t head_dim, cudaStream_t stream) {
  if (tokens <= 0 || heads <= 0 || head_dim <= 0) return;
  const int threads = 256;
  int64_t blocks = (tokens * heads * (head_dim / 2) + threads - 1) / threads;
  if (blocks > 65535 * 16) blocks = 65535 * 16;
  reference_rope<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(x, positions, out, tokens, heads, head_dim);
}
