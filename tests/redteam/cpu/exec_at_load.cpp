// Cheats on purpose (other programs): runs another program from a static constructor, which
// runs when the runner loads the library, before any call (a solution hoping the sandbox goes
// on only around its calls); its entry point is honest. The CPU runner installs its seccomp
// profile before loading the solution. Expected: failure sandbox_violation naming clone.
#include <cstdlib>

#include "arena_signature.h"

namespace {
struct AtLoad {
  AtLoad() { status = std::system("/bin/true"); }
  int status = 0;
};
AtLoad at_load;
}  // namespace

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
