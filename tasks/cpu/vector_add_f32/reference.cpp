#include "arena_signature.h"

// vector_add_f32 reference: trusted and simple. A float sum rounds once, so this is exact.

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
