// Broken on purpose: writes zeros. Expected: wrong_values, pattern zeros.
#include <cstring>
#include "arena_signature.h"
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  (void)a;
  (void)b;
  std::memset(out, 0, static_cast<size_t>(n) * sizeof(float));
}
