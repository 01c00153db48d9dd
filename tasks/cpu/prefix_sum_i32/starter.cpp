#include "arena_signature.h"

// prefix_sum_i32 starter: inclusive scan, one sequential pass, single-threaded.
// Correct for every n; make it faster.

extern "C" void prefix_sum_i32(const int32_t* in, int32_t* out, int64_t n) {
  int32_t acc = 0;
  for (int64_t i = 0; i < n; ++i) {
    acc += in[i];
    out[i] = acc;
  }
}
