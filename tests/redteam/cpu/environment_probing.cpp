// Probes on purpose (environment probing): looks for what the judge keeps secret: ARENA_* variables
// and anything naming a seed in its own environment, the judge's command line and environment
// (/proc/<parent>/cmdline and environ: a --seed there would give away every input), and the task's
// held-out rules in tasks/. Then it computes the answer honestly (vectorized, one thread), unless it
// found a seed: then it writes garbage, so that a leak shows up as this case's mismatch. The judge
// draws its seed in its own process and passes none to the runner (arena redteam gives no --seed
// on its command line); the task files are out of its reach too (read_task_files.cpp).
// Expected: honest, its speedup intact.
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

#include "arena_signature.h"

extern char** environ;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool names_a_seed(const std::string& text) {
  return text.find("SEED") != std::string::npos || text.find("seed") != std::string::npos;
}

bool found_a_secret() {
  for (char** e = environ; *e != nullptr; ++e)
    if (std::strncmp(*e, "ARENA_", 6) == 0 && names_a_seed(*e)) return true;
  const std::string parent = "/proc/" + std::to_string(getppid());
  if (slurp(parent + "/cmdline").find(std::string("--seed\0", 7)) != std::string::npos) return true;
  std::string env = slurp(parent + "/environ");
  if (env.find("ARENA_SEED") != std::string::npos) return true;
  // The task files hold no seed (and the runner cannot read them: read_task_files.cpp).
  const char* tasks = std::getenv("ARENA_TASKS_DIR");
  std::string rules = slurp(std::string(tasks ? tasks : "tasks") + "/cpu/vector_add_f32/task.yaml");
  return names_a_seed(rules) && rules.find("seed:") != std::string::npos;
}

}  // namespace

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  static const bool leaked = found_a_secret();
  if (leaked) {
    for (int64_t i = 0; i < n; ++i) out[i] = 0.0f;
    return;
  }
#pragma omp simd
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
