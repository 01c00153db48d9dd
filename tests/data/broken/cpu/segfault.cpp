// Broken on purpose: dereferences a null pointer. Expected: crash (SIGSEGV).
#include "arena_signature.h"
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  volatile float* nowhere = nullptr;
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i] + nowhere[i];
}
