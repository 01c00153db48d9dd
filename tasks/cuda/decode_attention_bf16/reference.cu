#include "arena_signature.h"

// decode_attention_bf16 reference: one block of 256 threads (8 warps) per query row (batch b,
// query head h), plain softmax attention in double, in two passes over the keys of kv head
// h / (heads / kv_heads):
//   1. max: warp w computes s[j] = scale · q·k[j] for keys j = w, w + 8, ... (lanes split the
//      head dim, a shuffle reduction adds them up) and keeps the largest; a block reduction
//      gives the row max m.
//   2. sums: the warps recompute the same scores with the same code (m only has to be the
//      largest score to within rounding, so that exp(s - m) <= ~1), and add p = exp(s - m) to
//      their own l and p · v[j][d] to their own acc[d] (lane owns dims lane, lane + 32, ...). The
//      8 warps' partials are then added in warp order.
// out[d] = acc[d] / l, narrowed to fp32 and rounded once to bf16 (nearest even). The scores are
// recomputed rather than stored so that seq_k = 131072 needs no shared memory per key.

#include <math.h>

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kMaxDim = 128;

__global__ void __launch_bounds__(kThreads)
reference_decode_attention(const __nv_bfloat16* __restrict__ q, const __nv_bfloat16* __restrict__ k,
                           const __nv_bfloat16* __restrict__ v, __nv_bfloat16* __restrict__ out, int64_t heads,
                           int64_t kv_heads, int64_t seq_k, int64_t head_dim, float scale) {
  __shared__ double qs[kMaxDim];
  __shared__ double part_acc[kWarps][kMaxDim];
  __shared__ double part_l[kWarps];
  __shared__ double part_m[kWarps];

  const int64_t D = head_dim;
  const int64_t row = blockIdx.x;  // b * heads + h
  const int64_t b = row / heads, h = row % heads;
  const int64_t kvh = h / (heads / kv_heads);
  const __nv_bfloat16* kb = k + (b * kv_heads + kvh) * seq_k * D;
  const __nv_bfloat16* vb = v + (b * kv_heads + kvh) * seq_k * D;
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;

  for (int64_t d = tid; d < D; d += kThreads) qs[d] = static_cast<double>(__bfloat162float(q[row * D + d]));
  __syncthreads();

  // Every lane ends the shuffle reduction with the whole dot product.
  auto score = [&](int64_t j) {
    double s = 0.0;
    for (int64_t d = lane; d < D; d += 32) s = fma(qs[d], static_cast<double>(__bfloat162float(kb[j * D + d])), s);
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
    return s * static_cast<double>(scale);
  };

  // Pass 1: the row max.
  double m = -INFINITY;
  for (int64_t j = warp; j < seq_k; j += kWarps) m = fmax(m, score(j));
  if (lane == 0) part_m[warp] = m;
  __syncthreads();
  m = part_m[0];
  for (int w = 1; w < kWarps; ++w) m = fmax(m, part_m[w]);

  // Pass 2: exponentials, their sum and the weighted sum of v, per warp.
  double l = 0.0, acc[kMaxDim / 32];
  for (int e = 0; e < kMaxDim / 32; ++e) acc[e] = 0.0;
  for (int64_t j = warp; j < seq_k; j += kWarps) {
    const double p = exp(score(j) - m);
    l += p;
    for (int e = 0; e < kMaxDim / 32; ++e) {
      const int64_t d = lane + 32 * e;
      if (d < D) acc[e] = fma(p, static_cast<double>(__bfloat162float(vb[j * D + d])), acc[e]);
    }
  }
  for (int e = 0; e < kMaxDim / 32; ++e) {
    const int64_t d = lane + 32 * e;
    if (d < D) part_acc[warp][d] = acc[e];
  }
  if (lane == 0) part_l[warp] = l;
  __syncthreads();

  for (int64_t d = tid; d < D; d += kThreads) {
    double a = 0.0, sum = 0.0;
    for (int w = 0; w < kWarps; ++w) {
      a += part_acc[w][d];
      sum += part_l[w];
    }
    out[row * D + d] = __float2bfloat16_rn(static_cast<float>(a / sum));  // sum >= 1: the max key gives exp(0)
  }
}

extern "C" void decode_attention_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                                      __nv_bfloat16* out, int64_t batch, int64_t heads, int64_t kv_heads,
                                      int64_t seq_k, int64_t head_dim, float scale, cudaStream_t stream) {
  const int64_t rows = batch * heads;
  if (rows <= 0 || seq_k <= 0 || head_dim <= 0 || head_dim > kMaxDim) return;
  // One block per query row: rows <= 65536, inside gridDim.x.
  reference_decode_attention<<<static_cast<unsigned>(rows), kThreads, 0, stream>>>(q, k, v, out, heads, kv_heads,
                                                                                    seq_k, head_dim, scale);
}
