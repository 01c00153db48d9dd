// Broken on purpose: never returns. Expected: timeout.
#include "arena_signature.h"
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  volatile int64_t i = 0;
  for (;;) {
    out[i % n] = a[i % n] + b[i % n];
    i = i + 1;
  }
}
