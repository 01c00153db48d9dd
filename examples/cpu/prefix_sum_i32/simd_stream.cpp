#include "arena_signature.h"

// prefix_sum_i32 example: a vectorized scan with streaming stores, single-threaded.
//  - The scan itself is vectorized with OpenMP's `simd reduction(inscan)`: g++ turns it into
//    in-register log-step prefix sums plus a carried total, several elements per cycle instead of
//    one dependent add per element.
//  - For large n the loop is memory-bound. A normal store first reads the destination line
//    (read-for-ownership): 12 bytes of traffic per element instead of 8. So large inputs are
//    scanned in L1-sized blocks into a small buffer and copied out with non-temporal stores.

#include <immintrin.h>

#include <algorithm>
#include <cstdint>

namespace {

constexpr int64_t kBlock = 2048;  // int32s per buffered block (8 KiB, stays in L1)

// out[i] = carry + in[0] + ... + in[i]; returns the last prefix.
inline int32_t scan_into(const int32_t* __restrict in, int32_t* __restrict out, int64_t n, int32_t carry) {
  int32_t acc = carry;
#pragma omp simd reduction(inscan, + : acc)
  for (int64_t i = 0; i < n; ++i) {
    acc += in[i];
#pragma omp scan inclusive(acc)
    out[i] = acc;
  }
  return acc;
}

// Copies kBlock int32s from an aligned buffer to a 64-byte-aligned destination, bypassing caches.
inline void stream_block(const int32_t* __restrict src, int32_t* __restrict dst) {
#if defined(__AVX512F__)
  for (int64_t i = 0; i < kBlock; i += 16)
    _mm512_stream_si512(reinterpret_cast<__m512i*>(dst + i), _mm512_load_si512(src + i));
#elif defined(__AVX__)
  for (int64_t i = 0; i < kBlock; i += 8)
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i), _mm256_load_si256(reinterpret_cast<const __m256i*>(src + i)));
#else
  for (int64_t i = 0; i < kBlock; i += 4)
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), _mm_load_si128(reinterpret_cast<const __m128i*>(src + i)));
#endif
}

}  // namespace

extern "C" void prefix_sum_i32(const int32_t* in, int32_t* out, int64_t n) {
  if (n < (int64_t{1} << 18)) {  // up to 2 MiB of traffic: stays in cache, plain stores are best
    scan_into(in, out, n, 0);
    return;
  }
  // Head: plain scan until `out` is 64-byte aligned.
  int64_t head = static_cast<int64_t>((-(reinterpret_cast<uintptr_t>(out) / sizeof(int32_t))) & 15);
  int32_t carry = scan_into(in, out, head, 0);
  int64_t i = head;
  alignas(64) int32_t buf[kBlock];
  for (; i + kBlock <= n; i += kBlock) {
    carry = scan_into(in + i, buf, kBlock, carry);
    stream_block(buf, out + i);
  }
  _mm_sfence();  // streaming stores are weakly ordered: make them visible before returning
  scan_into(in + i, out + i, n - i, carry);
}
