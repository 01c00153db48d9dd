// Broken on purpose: n is an int, not an int64_t. Expected: compile_error naming the signature.
#include "arena_signature.h"
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int n) {
  for (int i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
