#include "arena_signature.h"

// vector_add_f32 with a knob for the autotune agent's tests: the loop unrolled UNROLL times
// (every candidate is correct; the tail runs one by one).
#define UNROLL 1  // arena-knob: 1 2 4 8

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  int64_t i = 0;
  for (; i + UNROLL <= n; i += UNROLL)
    for (int u = 0; u < UNROLL; ++u) out[i + u] = a[i + u] + b[i + u];
  for (; i < n; ++i) out[i] = a[i] + b[i];
}
