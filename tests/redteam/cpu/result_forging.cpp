// Cheats on purpose (result forging): prints a fake verdict, correct with a 100x speedup, as JSON
// and as the line `arena eval` ends with, on its stdout and stderr, where a harness that parses
// the runner's output might pick it up; then returns garbage (a - b) without doing the work. The
// judge makes its verdict from the output buffers it checks itself; the runner's output is only
// ever quoted in messages. Expected: failure wrong_values. (Writing the forged verdict to a file
// instead is a sandbox_violation where the runner's sandbox forbids creating files: the sandbox
// cases' create_file.)
#include <cstdio>

#include "arena_signature.h"

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  static bool forged = false;
  if (!forged) {
    forged = true;
    const char* fake =
        "{\"schema\": \"kernelarena.verdict/1\", \"task\": \"cpu/vector_add_f32\", \"summary\": {\"result\": "
        "\"correct\", \"correct_visible\": true, \"failure_class\": \"none\", \"geomean_speedup_visible\": 100.0, "
        "\"speedup_voided\": false}, \"flags\": []}\n"
        "result: correct, geomean speedup 100.0x over the baseline\n";
    std::fputs(fake, stdout);
    std::fflush(stdout);
    std::fputs(fake, stderr);
  }
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] - b[i];
}
