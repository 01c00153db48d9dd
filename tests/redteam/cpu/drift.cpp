// Cheats on purpose (drift): correct for its first eight calls on a shape (the judge's checks, its
// warm-up and the first timed calls), then each later result drifts a little further off: call k
// scales the sum by 1 + (k - 8) * 1e-4, as an accumulating state or a degrading approximation
// would. Every timed output is checked, not only the first ones. Expected: failure wrong_values.
#include "arena_signature.h"

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  static int64_t last_n = -1;
  static int calls = 0;
  if (n != last_n) {
    last_n = n;
    calls = 0;
  }
  ++calls;
  const float scale = calls <= 8 ? 1.0f : 1.0f + static_cast<float>(calls - 8) * 1e-4f;
  for (int64_t i = 0; i < n; ++i) out[i] = (a[i] + b[i]) * scale;
}
