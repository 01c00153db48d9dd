// Not broken: right for its first three calls, then the first element of every output is one
// ulp away from a + b, well inside the task's tolerance. The timed output is no longer the
// verified one bit for bit, so the judge must check it against the reference (on the host) and
// let it pass. Expected: pass.
#include "arena_signature.h"
__global__ void add(const float* a, const float* b, float* out, int64_t n, bool nudge) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  float s = a[i] + b[i];
  out[i] = nudge && i == 0 ? nextafterf(s, 1e30f) : s;
}
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  static int calls = 0;
  const bool nudge = ++calls > 3;
  add<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(a, b, out, n, nudge);
}
