// Cheats on purpose (warm-up detection): counts its calls on each shape. The judge's checks come
// first (three calls: two on the first seed, one on the second) and then a warm-up, so it does the
// whole sum on its first four calls of a shape and only the first half of it on every later call,
// believing those are timed and never looked at. The judge checks every timed output. Expected:
// failure wrong_values ("a timed call's output was wrong").
#include "arena_signature.h"

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  static int64_t last_n = -1;
  static int calls = 0;
  if (n != last_n) {
    last_n = n;
    calls = 0;
  }
  const int64_t end = ++calls <= 4 ? n : n / 2;
  for (int64_t i = 0; i < end; ++i) out[i] = a[i] + b[i];
}
