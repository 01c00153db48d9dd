#include "arena_signature.h"

// prefix_sum_i32 starter: a three-kernel scan that needs no scratch memory (`out` holds the
// intermediate results).
//   1. Each block of 1024 threads scans its 1024 elements in shared memory (Hillis–Steele,
//      double-buffered) and writes the local scan to `out`; the last element of each block then
//      holds the block's total.
//   2. One block turns those block totals into global prefixes in place: each thread adds up a
//      contiguous run of block totals, the 1024 run sums are scanned in shared memory, then each
//      thread rewrites its run with running prefixes. The last element of every block is final.
//   3. Every block but the first adds the (final) last element of the block before it to all of
//      its other elements.
// Correct for every n; make it faster (it reads and writes the data more often than needed).

constexpr int kBlock = 1024;

__global__ void block_scan_kernel(const int32_t* in, int32_t* out, int64_t n) {
  __shared__ int32_t buf[2][kBlock];
  const int t = threadIdx.x;
  const int64_t i = static_cast<int64_t>(blockIdx.x) * kBlock + t;
  int cur = 0;
  buf[cur][t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int offset = 1; offset < kBlock; offset <<= 1) {
    int32_t v = buf[cur][t];
    if (t >= offset) v += buf[cur][t - offset];
    buf[cur ^ 1][t] = v;
    cur ^= 1;
    __syncthreads();
  }
  if (i < n) out[i] = buf[cur][t];
}

// Index of the last element of block b.
__device__ int64_t block_last(int64_t b, int64_t n) {
  const int64_t end = (b + 1) * kBlock;
  return (end < n ? end : n) - 1;
}

__global__ void scan_block_totals_kernel(int32_t* out, int64_t n, int64_t blocks) {
  __shared__ int32_t buf[2][kBlock];
  const int t = threadIdx.x;
  const int64_t per = (blocks + kBlock - 1) / kBlock;
  const int64_t first = t * per;
  const int64_t last = first + per < blocks ? first + per : blocks;
  int32_t run_sum = 0;
  for (int64_t b = first; b < last; ++b) run_sum += out[block_last(b, n)];
  int cur = 0;
  buf[cur][t] = run_sum;
  __syncthreads();
  for (int offset = 1; offset < kBlock; offset <<= 1) {
    int32_t v = buf[cur][t];
    if (t >= offset) v += buf[cur][t - offset];
    buf[cur ^ 1][t] = v;
    cur ^= 1;
    __syncthreads();
  }
  int32_t prefix = buf[cur][t] - run_sum;  // exclusive: the totals of all runs before this one
  for (int64_t b = first; b < last; ++b) {
    const int64_t at = block_last(b, n);
    prefix += out[at];
    out[at] = prefix;
  }
}

__global__ void add_block_offsets_kernel(int32_t* out, int64_t n) {
  const int64_t b = static_cast<int64_t>(blockIdx.x) + 1;  // block 0 is already final
  const int64_t i = b * kBlock + threadIdx.x;
  const int64_t last = block_last(b, n);
  if (i < last) out[i] += out[b * kBlock - 1];  // the last element of block b - 1, already final
}

extern "C" void prefix_sum_i32(const int32_t* in, int32_t* out, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  const int64_t blocks = (n + kBlock - 1) / kBlock;  // <= 2^18 for n <= 2^28
  block_scan_kernel<<<static_cast<unsigned>(blocks), kBlock, 0, stream>>>(in, out, n);
  if (blocks == 1) return;
  scan_block_totals_kernel<<<1, kBlock, 0, stream>>>(out, n, blocks);
  add_block_offsets_kernel<<<static_cast<unsigned>(blocks - 1), kBlock, 0, stream>>>(out, n);
}
