#include "arena_signature.h"

// histogram_u8 host reference (on the CPU, for `arena tasks check`): one sequential pass counting
// in int64, the 256 counts then written to `hist` (n <= 2^30, so each fits int32).

extern "C" void histogram_u8(const uint8_t* data, int32_t* hist, int64_t n) {
  int64_t counts[256] = {};
  for (int64_t i = 0; i < n; ++i) ++counts[data[i]];
  for (int b = 0; b < 256; ++b) hist[b] = static_cast<int32_t>(counts[b]);
}
