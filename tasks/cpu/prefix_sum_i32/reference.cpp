#include "arena_signature.h"

// prefix_sum_i32 reference: inclusive scan accumulated in int64, each prefix cast to int32. The
// task's inputs (-100..100, n <= 2^24) keep every prefix inside the int32 range.

extern "C" void prefix_sum_i32(const int32_t* in, int32_t* out, int64_t n) {
  int64_t acc = 0;
  for (int64_t i = 0; i < n; ++i) {
    acc += in[i];
    out[i] = static_cast<int32_t>(acc);
  }
}
