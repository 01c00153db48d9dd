#include "arena_signature.h"

// flash_attention_fwd_bf16 starter: one warp per query row, one pass over the keys with an
// online softmax, everything in fp32 registers. Lane l holds q, and accumulates o, at dims
// l, l + 32, ... of the row; each score is a warp-shuffle reduction. K and V are read straight
// from global memory, one key at a time, and no tensor cores are used. Correct for every legal
// shape; make it faster.
//
// Causal mask (bottom-right aligned): query i attends keys j <= i + (seq_k - seq_q).

#include <math.h>

// Warps (query rows) per block: a knob for `arena run --agent autotune` (every candidate is
// correct).
constexpr int kWarpsPerBlock = 8;  // arena-knob: 1 2 4 8 16 32

template <int D>
__global__ void attention_naive_kernel(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                                       __nv_bfloat16* o, int64_t rows, int64_t seq_q, int64_t seq_k, int causal,
                                       float scale) {
  constexpr int E = D / 32;  // dims per lane
  const int lane = threadIdx.x % 32;
  const int64_t row = static_cast<int64_t>(blockIdx.x) * kWarpsPerBlock + threadIdx.x / 32;  // (b, h, i) flattened
  if (row >= rows) return;  // whole warps leave together
  const int64_t bh = row / seq_q;
  const int64_t i = row % seq_q;
  const __nv_bfloat16* qr = q + row * D;
  const __nv_bfloat16* kb = k + bh * seq_k * D;
  const __nv_bfloat16* vb = v + bh * seq_k * D;

  float qv[E], acc[E];
  for (int e = 0; e < E; ++e) {
    qv[e] = __bfloat162float(qr[lane + 32 * e]);
    acc[e] = 0.0f;
  }
  int64_t kend = seq_k;
  if (causal) {
    const int64_t last = i + (seq_k - seq_q);  // the last key this query may see
    kend = last + 1 < seq_k ? last + 1 : seq_k;
  }

  float m = -INFINITY, l = 0.0f;
  for (int64_t j = 0; j < kend; ++j) {
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
  const float inv_l = l > 0.0f ? 1.0f / l : 0.0f;
  for (int e = 0; e < E; ++e) o[row * D + lane + 32 * e] = __float2bfloat16_rn(acc[e] * inv_l);
}

extern "C" void flash_attention_fwd_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                                         __nv_bfloat16* o, int64_t batch, int64_t heads, int64_t seq_q, int64_t seq_k,
                                         int64_t head_dim, int causal, float scale, cudaStream_t stream) {
  const int64_t rows = batch * heads * seq_q;
  if (rows <= 0) return;
  const int64_t blocks = (rows + kWarpsPerBlock - 1) / kWarpsPerBlock;  // fits gridDim.x for every legal shape
  const int threads = kWarpsPerBlock * 32;
  if (head_dim == 64)
    attention_naive_kernel<64><<<static_cast<unsigned>(blocks), threads, 0, stream>>>(q, k, v, o, rows, seq_q, seq_k,
                                                                                        causal, scale);
  else if (head_dim == 128)
    attention_naive_kernel<128><<<static_cast<unsigned>(blocks), threads, 0, stream>>>(q, k, v, o, rows, seq_q, seq_k,
                                                                                         causal, scale);
}
