// Broken on purpose: correct for its first calls (the ones the judge checks before timing), then
// from the 6th call on it also overwrites a[n-1] after computing. Timed calls move only outputs,
// so the judge must read the inputs back after timing. Expected: input_mutated.
#include "arena_signature.h"
__global__ void add(const float* a, const float* b, float* out, int64_t n) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}
__global__ void scribble(float* a, int64_t n) { a[n - 1] = 1234.5f; }
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  static int calls = 0;
  add<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(a, b, out, n);
  if (++calls >= 6) scribble<<<1, 1, 0, stream>>>(const_cast<float*>(a), n);
}
