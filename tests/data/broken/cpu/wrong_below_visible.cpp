// Broken on purpose: wrong only where n is below every visible n of vector_add_f32 (the smallest
// is 1000003), so it passes the visible shapes and the largest legal one and fails the held-out
// shape n=65537 that the task (and its copy in tests/integration/arena_cli.hpp) declares.
// Expected: `arena tasks check` finds it with the starter on the held-out shapes.
#include "arena_signature.h"
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
  if (n < 1000000) out[n / 2] = 0.0f;
}
