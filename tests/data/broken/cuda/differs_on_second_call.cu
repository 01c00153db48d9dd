// Broken on purpose: right on its first call, then element 5 is off by far more than the
// tolerance on every later one. Expected: nondeterministic (the two calls on the first seed's
// inputs disagree).
#include "arena_signature.h"
static int calls = 0;
__global__ void add(const float* a, const float* b, float* out, int64_t n, float skew) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i] + (i == 5 ? skew : 0.0f);
}
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  add<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(a, b, out, n, calls++ > 0 ? 0.5f : 0.0f);
}
