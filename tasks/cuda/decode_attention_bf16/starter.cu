#include "arena_signature.h"

// decode_attention_bf16 starter: one warp per query row (batch b, query head h), one pass over
// the keys of its kv head with an online softmax, everything in fp32 registers. Lane l holds q,
// and accumulates out, at dims l, l + 32, ... of the row (head_dim / 32 output elements per
// thread); each score is a warp-shuffle reduction. K and V are read straight from global memory,
// one key at a time: the query heads of a group each read the shared kv head separately, and a
// batch-1 call runs only `heads` warps. Correct for every legal shape; make it faster.
//
// Grouped-query attention: query head h reads kv head h / (heads / kv_heads).

#include <math.h>

// Warps (query rows) per block: a knob for `arena run --agent autotune` (every candidate is
// correct).
constexpr int kWarpsPerBlock = 8;  // arena-knob: 1 2 4 8 16 32

template <int D>
__global__ void decode_attention_naive_kernel(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                                              __nv_bfloat16* out, int64_t rows, int64_t heads, int64_t kv_heads,
                                              int64_t seq_k, float scale) {
  constexpr int E = D / 32;  // dims per lane
  const int lane = threadIdx.x % 32;
  const int64_t row = static_cast<int64_t>(blockIdx.x) * kWarpsPerBlock + threadIdx.x / 32;  // b * heads + h
  if (row >= rows) return;  // whole warps leave together
  const int64_t b = row / heads, h = row % heads;
  const int64_t kvh = h / (heads / kv_heads);
  const __nv_bfloat16* qr = q + row * D;
  const __nv_bfloat16* kb = k + (b * kv_heads + kvh) * seq_k * D;
  const __nv_bfloat16* vb = v + (b * kv_heads + kvh) * seq_k * D;

  float qv[E], acc[E];
  for (int e = 0; e < E; ++e) {
    qv[e] = __bfloat162float(qr[lane + 32 * e]);
    acc[e] = 0.0f;
  }
  float m = -INFINITY, l = 0.0f;
  for (int64_t j = 0; j < seq_k; ++j) {
    float s = 0.0f;
    for (int e = 0; e < E; ++e) s += qv[e] * __bfloat162float(kb[j * D + lane + 32 * e]);
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
    s *= scale;
    const float m_new = fmaxf(m, s);
    const float correction = expf(m - m_new);  // 0 on the first key (m = -inf)
    const float p = expf(s - m_new);
    l = l * correction + p;
    for (int e = 0; e < E; ++e) acc[e] = acc[e] * correction + p * __bfloat162float(vb[j * D + lane + 32 * e]);
    m = m_new;
  }
  const float inv_l = 1.0f / l;  // seq_k >= 1, and the largest score contributes exp(0) = 1
  for (int e = 0; e < E; ++e) out[row * D + lane + 32 * e] = __float2bfloat16_rn(acc[e] * inv_l);
}

extern "C" void decode_attention_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                                      __nv_bfloat16* out, int64_t batch, int64_t heads, int64_t kv_heads,
                                      int64_t seq_k, int64_t head_dim, float scale, cudaStream_t stream) {
  const int64_t rows = batch * heads;  // <= 65536
  if (rows <= 0 || seq_k <= 0) return;
  const int64_t blocks = (rows + kWarpsPerBlock - 1) / kWarpsPerBlock;
  const int threads = kWarpsPerBlock * 32;
  if (head_dim == 64)
    decode_attention_naive_kernel<64><<<static_cast<unsigned>(blocks), threads, 0, stream>>>(
        q, k, v, out, rows, heads, kv_heads, seq_k, scale);
  else if (head_dim == 128)
    decode_attention_naive_kernel<128><<<static_cast<unsigned>(blocks), threads, 0, stream>>>(
        q, k, v, out, rows, heads, kv_heads, seq_k, scale);
}
