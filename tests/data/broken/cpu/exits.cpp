// Broken on purpose: ends the process mid-call. Expected: crash.
#include <cstdlib>
#include "arena_signature.h"
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  (void)a; (void)b; (void)out; (void)n;
  std::exit(0);
}
