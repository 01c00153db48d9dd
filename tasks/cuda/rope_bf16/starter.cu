#include "arena_signature.h"

// rope_bf16 starter: one thread per rotated pair (x[i], x[i + half]) of one head of one token, a
// grid-stride loop over all pairs. Each thread computes its own θ_i = 10000^(-2i/head_dim) with
// powf, the angle pos·θ_i in fp32 and sincosf (full range reduction), and writes both outputs
// with scalar bf16 stores. Correct for every shape; make it faster.

#include <math.h>

// Threads per block: a knob for `arena run --agent autotune` (every candidate is correct).
constexpr int kThreads = 256;  // arena-knob: 64 128 256 512 1024

__global__ void rope_naive_kernel(const __nv_bfloat16* x, const int32_t* positions, __nv_bfloat16* out, int64_t tokens,
                                  int64_t heads, int64_t head_dim) {
  const int64_t half = head_dim / 2;
  const int64_t pairs = tokens * heads * half;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t p = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < pairs; p += stride) {
    const int64_t i = p % half;
    const int64_t th = p / half;  // token * heads + head
    const int64_t t = th / heads;
    const float theta = powf(10000.0f, -2.0f * static_cast<float>(i) / static_cast<float>(head_dim));
    const float angle = static_cast<float>(positions[t]) * theta;
    float s, c;
    sincosf(angle, &s, &c);
    const int64_t base = th * head_dim;
    const float x1 = __bfloat162float(x[base + i]);
    const float x2 = __bfloat162float(x[base + i + half]);
    out[base + i] = __float2bfloat16_rn(x1 * c - x2 * s);
    out[base + i + half] = __float2bfloat16_rn(x2 * c + x1 * s);
  }
}

extern "C" void rope_bf16(const __nv_bfloat16* x, const int32_t* positions, __nv_bfloat16* out, int64_t tokens,
                          int64_t heads, int64_t head_dim, cudaStream_t stream) {
  if (tokens <= 0 || heads <= 0 || head_dim <= 0) return;
  int64_t blocks = (tokens * heads * (head_dim / 2) + kThreads - 1) / kThreads;
  if (blocks > 65535 * 16) blocks = 65535 * 16;  // the grid-stride loop covers the rest
  rope_naive_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(x, positions, out, tokens, heads, head_dim);
}
