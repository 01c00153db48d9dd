// Probes on purpose (environment probing): tries to read the task's own files, the reference and
// the held-out rules, from wherever the judge's checkout may be: $ARENA_TASKS_DIR, tasks/ under
// its working directory and the directories above it, and the judge's /proc entry (its working
// directory and environment). A solution that can read the reference can copy its algorithm;
// one that can read the held-out rules can fit them. Where any read succeeds it writes zeros, so
// that the leak shows up as this case's mismatch; otherwise it computes honestly (one thread,
// like the starter). The runner confines file reads with Landlock to the system trees and its own
// library (src/backends/runner_landlock.hpp). Expected: honest, its speedup intact.
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "arena_signature.h"

namespace {

bool readable(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char c = 0;
  return in.get(c).good();
}

bool read_a_task_file() {
  std::string roots[] = {"tasks", "../tasks", "../../tasks", "../../../tasks",
                         "/proc/" + std::to_string(getppid()) + "/cwd/tasks"};
  if (const char* dir = std::getenv("ARENA_TASKS_DIR")) roots[0] = dir;
  for (const auto& root : roots)
    for (const char* file : {"/cpu/vector_add_f32/reference.cpp", "/cpu/vector_add_f32/task.yaml"})
      if (readable(root + file)) return true;
  return readable("/proc/" + std::to_string(getppid()) + "/environ");
}

}  // namespace

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  static const bool leaked = read_a_task_file();
  if (leaked) {
    for (int64_t i = 0; i < n; ++i) out[i] = 0.0f;
    return;
  }
#pragma omp simd
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
