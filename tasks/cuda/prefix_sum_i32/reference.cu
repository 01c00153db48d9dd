#include "arena_signature.h"

// prefix_sum_i32 reference: every running sum in int64 (the inputs keep every prefix inside
// int32, so the final narrowing is exact), in three kernels over fixed chunks of 2^14 elements:
//   1. one block per chunk sums the chunk (int64, shared-memory tree);
//   2. one block turns the chunk sums into exclusive chunk offsets (serial per thread, then a
//      serial pass by thread 0 over the per-thread totals);
//   3. one block per chunk walks the chunk in tiles of 1024, scanning each tile with warp
//      shuffles and carrying the running int64 total from tile to tile.
// Scratch (two int64 arrays of one entry per chunk) comes from cudaMallocAsync on the stream.

constexpr int64_t kChunk = 1 << 14;
constexpr int kThreads = 1024;
constexpr int kWarps = kThreads / 32;

__global__ void reference_chunk_sums(const int32_t* __restrict__ in, long long* __restrict__ sums, int64_t n) {
  __shared__ long long red[kThreads];
  const int64_t begin = static_cast<int64_t>(blockIdx.x) * kChunk;
  const int64_t end = begin + kChunk < n ? begin + kChunk : n;
  long long s = 0;
  for (int64_t i = begin + threadIdx.x; i < end; i += kThreads) s += in[i];
  red[threadIdx.x] = s;
  __syncthreads();
  for (int h = kThreads / 2; h > 0; h >>= 1) {
    if (threadIdx.x < h) red[threadIdx.x] += red[threadIdx.x + h];
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = red[0];
}

__global__ void reference_chunk_offsets(const long long* __restrict__ sums, long long* __restrict__ offsets,
                                        int64_t chunks) {
  __shared__ long long totals[kThreads];
  const int64_t per = (chunks + kThreads - 1) / kThreads;
  const int64_t begin = threadIdx.x * per;
  const int64_t end = begin + per < chunks ? begin + per : chunks;
  long long s = 0;
  for (int64_t c = begin; c < end; ++c) s += sums[c];
  totals[threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long run = 0;
    for (int t = 0; t < kThreads; ++t) {
      const long long v = totals[t];
      totals[t] = run;  // exclusive
      run += v;
    }
  }
  __syncthreads();
  long long run = totals[threadIdx.x];
  for (int64_t c = begin; c < end; ++c) {
    offsets[c] = run;
    run += sums[c];
  }
}

__global__ void reference_chunk_scan(const int32_t* __restrict__ in, int32_t* __restrict__ out,
                                     const long long* __restrict__ offsets, int64_t n) {
  __shared__ long long warp_totals[kWarps];
  __shared__ long long tile_total;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int64_t begin = static_cast<int64_t>(blockIdx.x) * kChunk;
  const int64_t end = begin + kChunk < n ? begin + kChunk : n;
  long long carry = offsets[blockIdx.x];
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

extern "C" void prefix_sum_i32(const int32_t* in, int32_t* out, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  const int64_t chunks = (n + kChunk - 1) / kChunk;  // <= 2^14 for n <= 2^28
  long long* scratch = nullptr;
  if (cudaMallocAsync(reinterpret_cast<void**>(&scratch), 2 * chunks * sizeof(long long), stream) != cudaSuccess) return;
  long long* sums = scratch;
  long long* offsets = scratch + chunks;
  reference_chunk_sums<<<static_cast<unsigned>(chunks), kThreads, 0, stream>>>(in, sums, n);
  reference_chunk_offsets<<<1, kThreads, 0, stream>>>(sums, offsets, chunks);
  reference_chunk_scan<<<static_cast<unsigned>(chunks), kThreads, 0, stream>>>(in, out, offsets, n);
  cudaFreeAsync(scratch, stream);
}
