#include "arena_signature.h"

// vector_add_f32 example: the loop is memory-bound, so the gain is in moving fewer bytes and in
// using more cores' worth of memory bandwidth.
//  - Large n: non-temporal (streaming) stores. A normal store first reads the destination line into
//    the cache (read-for-ownership), so each element costs 16 bytes of traffic instead of 12;
//    streaming stores skip that read and keep `out` from evicting `a` and `b`.
//  - OpenMP threads over contiguous chunks (each chunk aligned to a cache line of `out`).
//  - Small n (fits in cache): a plain vectorized loop on one thread.

#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>

namespace {

inline void add_plain(const float* __restrict a, const float* __restrict b, float* __restrict out, int64_t n) {
#pragma omp simd
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}

// out[0:n] = a + b with streaming stores; out need not be aligned (head and tail are plain).
inline void add_stream(const float* __restrict a, const float* __restrict b, float* __restrict out, int64_t n) {
#if defined(__AVX512F__)
  constexpr int64_t kW = 16;
#elif defined(__AVX__)
  constexpr int64_t kW = 8;
#else
  constexpr int64_t kW = 4;
#endif
  int64_t head = static_cast<int64_t>((-(reinterpret_cast<uintptr_t>(out) / sizeof(float))) & (kW - 1));
  head = std::min(head, n);
  add_plain(a, b, out, head);
  int64_t i = head;
  for (; i + kW <= n; i += kW) {
#if defined(__AVX512F__)
    _mm512_stream_ps(out + i, _mm512_add_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i)));
#elif defined(__AVX__)
    _mm256_stream_ps(out + i, _mm256_add_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i)));
#else
    _mm_stream_ps(out + i, _mm_add_ps(_mm_loadu_ps(a + i), _mm_loadu_ps(b + i)));
#endif
  }
  add_plain(a + i, b + i, out + i, n - i);
}

}  // namespace

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  if (n < (int64_t{1} << 18)) {  // up to 3 MiB of traffic: stays in cache, one thread
    add_plain(a, b, out, n);
    return;
  }
#pragma omp parallel
  {
    const int64_t nt = omp_get_num_threads(), t = omp_get_thread_num();
    // Chunks in multiples of 16 floats (64 bytes) so threads never share a cache line of `out`.
    const int64_t per = ((n + nt - 1) / nt + 15) / 16 * 16;
    const int64_t lo = std::min(n, t * per), hi = std::min(n, lo + per);
    add_stream(a + lo, b + lo, out + lo, hi - lo);
  }
  _mm_sfence();  // streaming stores are weakly ordered: make them visible before returning
}
