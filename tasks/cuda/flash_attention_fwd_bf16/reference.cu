#include "arena_signature.h"

// flash_attention_fwd_bf16 reference: one block of 256 threads per query row, plain three-step
// attention in double.
//   1. scores: warp w computes s[j] = scale · q·k[j] for keys j = w, w + 8, ... (lanes split the
//      head dim, a shuffle reduction adds them up), into shared memory;
//   2. softmax: the block max, p[j] = exp(s[j] - max) and their sum, all in double;
//   3. output: o[d] = sum_j p[j] · v[j][d] / sum; the keys are split over 256 / head_dim groups
//      of threads whose partial sums are added in a fixed order.
// The result is narrowed to fp32 and rounded once to bf16 (nearest even).
// Causal mask (bottom-right aligned): query i attends keys j <= i + (seq_k - seq_q).
// Shared memory holds one double per key (128 KiB at seq_k = 16384), so the launch raises the
// kernel's dynamic shared memory limit when needed.

#include <math.h>

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

__device__ double reference_block_reduce(double v, bool take_max, double* red) {
  for (int off = 16; off > 0; off >>= 1) {
    const double u = __shfl_xor_sync(0xffffffffu, v, off);
    v = take_max ? fmax(v, u) : v + u;
  }
  if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = v;
  __syncthreads();
  double r = red[0];
  for (int w = 1; w < kWarps; ++w) r = take_max ? fmax(r, red[w]) : r + red[w];
  __syncthreads();  // red is reused by the next reduction
  return r;
}

__global__ void __launch_bounds__(kThreads)
reference_attention(const __nv_bfloat16* __restrict__ q, const __nv_bfloat16* __restrict__ k,
                    const __nv_bfloat16* __restrict__ v, __nv_bfloat16* __restrict__ o, int64_t seq_q,
                    int64_t seq_k, int64_t head_dim, int causal, float scale) {
  extern __shared__ double smem[];
  const int64_t D = head_dim;
  const int64_t part_len = D > kThreads ? D : kThreads;
  double* p = smem;              // [seq_k] scores, then probabilities
  double* qs = p + seq_k;        // [D]
  double* part = qs + D;         // [part_len] partial output sums
  double* red = part + part_len; // [kWarps]

  const int64_t row = blockIdx.x;  // (b, h, i) flattened
  const int64_t bh = row / seq_q;
  const int64_t i = row % seq_q;
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const __nv_bfloat16* kb = k + bh * seq_k * D;
  const __nv_bfloat16* vb = v + bh * seq_k * D;

  int64_t kend = seq_k;
  if (causal) {
    const int64_t last = i + (seq_k - seq_q);
    kend = last + 1 < seq_k ? last + 1 : seq_k;
    if (kend < 0) kend = 0;
  }

  for (int64_t d = tid; d < D; d += kThreads) qs[d] = static_cast<double>(__bfloat162float(q[row * D + d]));
  __syncthreads();

  for (int64_t j = warp; j < kend; j += kWarps) {
    double s = 0.0;
    for (int64_t d = lane; d < D; d += 32) s = fma(qs[d], static_cast<double>(__bfloat162float(kb[j * D + d])), s);
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
    if (lane == 0) p[j] = s * static_cast<double>(scale);
  }
  __syncthreads();

  double m = -INFINITY;
  for (int64_t j = tid; j < kend; j += kThreads) m = fmax(m, p[j]);
  m = reference_block_reduce(m, true, red);
  double l = 0.0;
  for (int64_t j = tid; j < kend; j += kThreads) {
    const double e = exp(p[j] - m);
    p[j] = e;
    l += e;
  }
  l = reference_block_reduce(l, false, red);  // also orders the p[] writes before the reads below

  const int64_t groups = kThreads / D > 1 ? kThreads / D : 1;
  for (int64_t t = tid; t < groups * D; t += kThreads) {
    const int64_t d = t % D, g = t / D;
    double acc = 0.0;
    for (int64_t j = g; j < kend; j += groups) acc = fma(p[j], static_cast<double>(__bfloat162float(vb[j * D + d])), acc);
    part[t] = acc;
  }
  __syncthreads();
  for (int64_t d = tid; d < D; d += kThreads) {
    double acc = 0.0;
    for (int64_t g = 0; g < groups; ++g) acc += part[g * D + d];
    const double out = l > 0.0 ? acc / l : 0.0;
    o[row * D + d] = __float2bfloat16_rn(static_cast<float>(out));
  }
}

extern "C" void flash_attention_fwd_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                                         __nv_bfloat16* o, int64_t batch, int64_t heads, int64_t seq_q, int64_t seq_k,
                                         int64_t head_dim, int causal, float scale, cudaStream_t stream) {
  const int64_t rows = batch * heads * seq_q;
  if (rows <= 0 || seq_k <= 0 || head_dim <= 0) return;
  const int64_t part_len = head_dim > kThreads ? head_dim : kThreads;
  const size_t smem = static_cast<size_t>(seq_k + head_dim + part_len + kWarps) * sizeof(double);
  if (smem > 48 * 1024)
    cudaFuncSetAttribute(reference_attention, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem));
  // One block per query row: rows <= 2^25 for every legal shape (memory cap), inside gridDim.x.
  reference_attention<<<static_cast<unsigned>(rows), kThreads, smem, stream>>>(q, k, v, o, seq_q, seq_k, head_dim,
                                                                              causal, scale);
}
