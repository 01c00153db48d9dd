// Broken on purpose: an off-by-one loop writes one element past the output. Expected: out_of_bounds.
#include "arena_signature.h"
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  for (int64_t i = 0; i <= n; ++i) out[i] = a[i % n] + b[i % n];
}
