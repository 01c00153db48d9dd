// Broken on purpose: every 1000th element is NaN. Expected: nan_inf.
#include <cmath>
#include "arena_signature.h"
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = (i % 1000 == 7) ? std::nanf("") : a[i] + b[i];
}
