// Broken on purpose: computes once, then returns whatever the output buffer already holds when it
// sees the same addresses again (a cache keyed on the input pointer). Expected: wrong_values,
// pattern unwritten.
#include "arena_signature.h"
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  static const float* last = nullptr;
  if (a == last) return;
  last = a;
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
