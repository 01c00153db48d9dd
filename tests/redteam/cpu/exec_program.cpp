// Cheats on purpose (other programs): replaces the runner with another program (execve of
// /bin/true, no fork), as a solution would to leave the judge's runner for a process of its
// choosing; had it returned, it would compute the right answer. The runner's seccomp profile
// denies execve. Expected: failure sandbox_violation naming execve.
#include <unistd.h>

#include "arena_signature.h"

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  char program[] = "/bin/true";
  char* argv[] = {program, nullptr};
  char* envp[] = {nullptr};
  execve(program, argv, envp);
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
