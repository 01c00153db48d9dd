// Cheats on purpose: tries to open its own compiled library for writing. It lives in the judge's
// compile cache, beside the baseline's, under a name an agent can work out (a hash of source,
// flags and toolchain): a runner that could open it could overwrite the baseline's library too.
// Where the open succeeds the outputs are left zero, so the hole shows as wrong values; where
// the sandbox denies it (Landlock lets a CUDA runner write device files alone) the values are
// right. Nothing is written either way. Expected: honest.
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include "arena_signature.h"

__global__ void add(const float* a, const float* b, float* out, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)
    out[i] = a[i] + b[i];
}

static bool library_writable() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&library_writable), &info) == 0 || info.dli_fname == nullptr) return false;
  int fd = open(info.dli_fname, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  close(fd);
  return true;
}

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  static const bool writable = library_writable();
  if (writable) {
    cudaMemsetAsync(out, 0, n * sizeof(float), stream);
    return;
  }
  add<<<528, 256, 0, stream>>>(a, b, out, n);
}
