#include "arena_signature.h"

// topk_f32 reference: one block per row, in three plain steps, each following the definition of
// the answer (output j is the row's value with exactly j larger values in the row):
//   1. the k-th largest value, as the largest threshold t (over the order-preserving 32-bit keys
//      of the floats) with at least k values of the row >= t, built one bit at a time from the
//      top: 32 counting passes over the row;
//   2. the values >= that threshold (exactly k, the values being distinct) gathered into shared
//      memory with their columns;
//   3. each gathered value's rank = how many gathered values are larger (all larger values of
//      the row were gathered too), and it is written to position rank.
// Exact (only comparisons and copies), O(32·cols + k²) per row whatever k is.

#include <stdint.h>

constexpr int kThreads = 256;
constexpr int kMaxK = 1024;  // the task's largest k

// Orders floats as unsigned integers: negative values flip all bits, non-negative set the sign.
__device__ uint32_t reference_order_key(float f) {
  const uint32_t u = __float_as_uint(f);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

__global__ void __launch_bounds__(kThreads)
reference_topk(const float* __restrict__ x, float* __restrict__ values, int32_t* __restrict__ indices, int64_t cols,
               int64_t k) {
  __shared__ float sel_v[kMaxK];
  __shared__ int32_t sel_i[kMaxK];
  __shared__ unsigned int count;
  const int64_t row = blockIdx.x;
  const float* xr = x + row * cols;
  const int t = threadIdx.x;

  // 1. The largest key `thr` with #{c : key(x[c]) >= thr} >= k: the key of the k-th largest.
  uint32_t thr = 0;
  for (int bit = 31; bit >= 0; --bit) {
    const uint32_t cand = thr | (1u << bit);
    if (t == 0) count = 0;
    __syncthreads();
    unsigned int local = 0;
    for (int64_t c = t; c < cols; c += kThreads) local += reference_order_key(xr[c]) >= cand ? 1u : 0u;
    atomicAdd(&count, local);
    __syncthreads();
    if (count >= static_cast<unsigned int>(k)) thr = cand;
    __syncthreads();  // everyone has read count before it is reset
  }

  // 2. Gather the values >= the threshold (in any order). Distinct inputs give exactly k; the
  //    guard only keeps tied inputs, which the task never has, inside the buffer.
  if (t == 0) count = 0;
  __syncthreads();
  for (int64_t c = t; c < cols; c += kThreads) {
    const float v = xr[c];
    if (reference_order_key(v) >= thr) {
      const unsigned int slot = atomicAdd(&count, 1u);
      if (slot < static_cast<unsigned int>(k)) {
        sel_v[slot] = v;
        sel_i[slot] = static_cast<int32_t>(c);
      }
    }
  }
  __syncthreads();

  // 3. Rank = number of larger gathered values; position rank of the row's outputs.
  const int n = static_cast<int>(k);
  for (int s = t; s < n; s += kThreads) {
    int rank = 0;
    for (int j = 0; j < n; ++j) rank += sel_v[j] > sel_v[s] ? 1 : 0;
    values[row * k + rank] = sel_v[s];
    indices[row * k + rank] = sel_i[s];
  }
}

extern "C" void topk_f32(const float* x, float* values, int32_t* indices, int64_t rows, int64_t cols, int64_t k,
                         cudaStream_t stream) {
  if (rows <= 0 || k <= 0) return;
  // One block per row: rows <= 2^28 fits gridDim.x (2^31 - 1).
  reference_topk<<<static_cast<unsigned>(rows), kThreads, 0, stream>>>(x, values, indices, cols, k);
}
