// Broken on purpose: right output, but it uses an input as scratch space. Expected: input_mutated.
#include "arena_signature.h"
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  float* scratch = const_cast<float*>(b);
  for (int64_t i = 0; i < n; ++i) {
    out[i] = a[i] + b[i];
    scratch[i] = 0.0f;
  }
}
