#include "arena_signature.h"

// vector_add_f32 starter: a plain, single-threaded loop. Correct for every n; make it faster.

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
