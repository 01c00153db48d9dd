// Broken on purpose: adds noise that changes from call to call. Expected: nondeterministic.
#include <random>
#include "arena_signature.h"
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  static std::mt19937_64 rng{std::random_device{}()};
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
  out[rng() % static_cast<uint64_t>(n)] += 1.0f + static_cast<float>(rng() % 1000);
}
