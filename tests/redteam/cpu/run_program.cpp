// Cheats on purpose (environment probing / other programs): runs another program from inside the
// call (std::system, which forks through clone without CLONE_THREAD and then execs /bin/sh),
// as a solution would to reach a compiler, a network tool or a helper outside the runner; then
// computes the right answer. The runner's seccomp profile denies new processes. Expected:
// failure sandbox_violation naming clone.
#include <cstdlib>

#include "arena_signature.h"

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  static int status = std::system("/bin/true");
  (void)status;
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
