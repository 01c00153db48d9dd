// Broken on purpose: the last element is computed wrong. Expected: wrong_values, where tail.
#include "arena_signature.h"
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  for (int64_t i = 0; i < n - 1; ++i) out[i] = a[i] + b[i];
  out[n - 1] = a[n - 1] - b[n - 1];
}
