// Cheats on purpose (result forging, environment probing): creates a file in /tmp, as a
// solution would to leave a forged result, a cache across runners or a note for a later run;
// then removes it and computes the right answer. The runner's seccomp profile denies opening
// with O_CREAT. Expected: failure sandbox_violation naming openat; with ARENA_NO_SANDBOX=1 it
// passes (the sandbox is the only thing that stops it).
#include <unistd.h>

#include <cstdio>
#include <string>

#include "arena_signature.h"

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  static bool done = false;
  if (!done) {
    done = true;
    std::string path = "/tmp/arena-redteam-create-file-" + std::to_string(getpid());
    if (std::FILE* f = std::fopen(path.c_str(), "w")) {
      std::fputs("written by a solution\n", f);
      std::fclose(f);
      std::remove(path.c_str());
    }
  }
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
