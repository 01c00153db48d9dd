#include "arena_signature.h"

// prefix_sum_i32 reference: every running sum in int64 (the inputs keep every prefix inside
// int32, so each narrowing to int32 is exact). No scratch memory: `out` holds the intermediate
// results. Three kernels over fixed chunks of 2^14 elements:
//   1. one block per chunk scans the chunk locally, in tiles of 1024 (warp-shuffle scans, the
//      running int64 total carried from tile to tile); the chunk's last element holds its total;
//   2. one block replaces the last element of every chunk by its global prefix (each thread sums
//      a run of chunk totals, thread 0 scans the run sums serially, each thread rewrites its run);
//   3. one block per chunk c >= 1 adds the (final) last element of chunk c - 1 to every other
//      element of chunk c.

constexpr int64_t kChunk = 1 << 14;
constexpr int kThreads = 1024;
constexpr int kWarps = kThreads / 32;

__device__ int64_t reference_chunk_last(int64_t c, int64_t n) {
  const int64_t end = (c + 1) * kChunk;
  return (end < n ? end : n) - 1;
}

__global__ void reference_local_scan(const int32_t* __restrict__ in, int32_t* __restrict__ out, int64_t n) {
  __shared__ long long warp_totals[kWarps];
  __shared__ long long tile_total;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int64_t begin = static_cast<int64_t>(blockIdx.x) * kChunk;
  const int64_t end = begin + kChunk < n ? begin + kChunk : n;
  long long carry = 0;
  for (int64_t base = begin; base < end; base += kThreads) {
    const int64_t i = base + threadIdx.x;
    long long v = i < end ? static_cast<long long>(in[i]) : 0;
    for (int d = 1; d < 32; d <<= 1) {  // inclusive scan within the warp
      const long long u = __shfl_up_sync(0xffffffffu, v, d);
      if (lane >= d) v += u;
    }
    if (lane == 31) warp_totals[warp] = v;
    __syncthreads();
    if (warp == 0) {  // inclusive scan of the warp totals
      long long t = warp_totals[lane];
      for (int d = 1; d < 32; d <<= 1) {
        const long long u = __shfl_up_sync(0xffffffffu, t, d);
        if (lane >= d) t += u;
      }
      warp_totals[lane] = t;
      if (lane == 31) tile_total = t;
    }
    __syncthreads();
    const long long before = warp > 0 ? warp_totals[warp - 1] : 0;
    if (i < end) out[i] = static_cast<int32_t>(carry + before + v);
    carry += tile_total;
    __syncthreads();  // warp_totals and tile_total are rewritten by the next tile
  }
}

__global__ void reference_chunk_prefixes(int32_t* __restrict__ out, int64_t n, int64_t chunks) {
  __shared__ long long run_start[kThreads];
  const int64_t per = (chunks + kThreads - 1) / kThreads;
  const int64_t first = static_cast<int64_t>(threadIdx.x) * per;
  const int64_t last = first + per < chunks ? first + per : chunks;
  long long s = 0;
  for (int64_t c = first; c < last; ++c) s += out[reference_chunk_last(c, n)];
  run_start[threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long run = 0;
    for (int t = 0; t < kThreads; ++t) {
      const long long v = run_start[t];
      run_start[t] = run;  // exclusive
      run += v;
    }
  }
  __syncthreads();
  long long run = run_start[threadIdx.x];
  for (int64_t c = first; c < last; ++c) {
    const int64_t at = reference_chunk_last(c, n);
    run += out[at];
    out[at] = static_cast<int32_t>(run);
  }
}

__global__ void reference_add_chunk_offsets(int32_t* __restrict__ out, int64_t n) {
  const int64_t c = static_cast<int64_t>(blockIdx.x) + 1;
  const int64_t begin = c * kChunk;
  const int64_t last = reference_chunk_last(c, n);  // already final
  const long long offset = out[begin - 1];          // the last element of chunk c - 1, final
  for (int64_t i = begin + threadIdx.x; i < last; i += kThreads)
    out[i] = static_cast<int32_t>(static_cast<long long>(out[i]) + offset);
}

extern "C" void prefix_sum_i32(const int32_t* in, int32_t* out, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  const int64_t chunks = (n + kChunk - 1) / kChunk;  // <= 2^14 for n <= 2^28
  reference_local_scan<<<static_cast<unsigned>(chunks), kThreads, 0, stream>>>(in, out, n);
  if (chunks == 1) return;
  reference_chunk_prefixes<<<1, kThreads, 0, stream>>>(out, n, chunks);
  reference_add_chunk_offsets<<<static_cast<unsigned>(chunks - 1), kThreads, 0, stream>>>(out, n);
}
