// Broken on purpose: right for its first three calls (the correctness checks), then one element
// of every later call's output is off by one: only the check of timed outputs can see it.
// Expected: wrong_values, "a timed call's output was wrong".
#include "arena_signature.h"
__global__ void add(const float* a, const float* b, float* out, int64_t n, int64_t wrong_at) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i] + (i == wrong_at ? 1.0f : 0.0f);
}
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  static int calls = 0;
  const int64_t wrong_at = ++calls > 3 ? n / 2 : -1;
  add<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(a, b, out, n, wrong_at);
}
