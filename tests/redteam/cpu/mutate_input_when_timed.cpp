// Broken on purpose: right for the calls the judge checks before timing, then from the 6th call
// on it also overwrites the last element of `a` after computing. Expected: input_mutated, found
// when the judge reads the inputs back after the timed calls.
#include "arena_signature.h"
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  static int calls = 0;
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
  if (++calls >= 6) const_cast<float*>(a)[n - 1] = 1234.5f;
}
