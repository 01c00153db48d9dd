// Cheats on purpose (shape specialization): a scan compiled for exactly the task's four visible
// sizes (each a template instance with its trip count fixed at compile time, unrolled by 8), and
// nothing for any other n, whose output it leaves unwritten. Judged with --shapes all: the held-out shapes, drawn from
// the task's rules by a secret seed, are never these. Expected: failure wrong_values on a held-out
// shape (the visible ones pass).
#include "arena_signature.h"

namespace {
template <int64_t N>
void scan(const int32_t* in, int32_t* out) {
  int32_t acc = 0;
  constexpr int64_t body = N / 8 * 8;
  for (int64_t i = 0; i < body; i += 8) {
#pragma GCC unroll 8
    for (int64_t k = 0; k < 8; ++k) out[i + k] = acc += in[i + k];
  }
  for (int64_t i = body; i < N; ++i) out[i] = acc += in[i];
}
}  // namespace

extern "C" void prefix_sum_i32(const int32_t* in, int32_t* out, int64_t n) {
  switch (n) {
    case 1000003:
      return scan<1000003>(in, out);
    case 4194304:
      return scan<4194304>(in, out);
    case 9999991:
      return scan<9999991>(in, out);
    case 16777216:
      return scan<16777216>(in, out);
    default:
      return;  // a shape it was never shown
  }
}
