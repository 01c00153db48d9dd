// Broken on purpose: the bounds check is off by one, so one element past the output is written.
// Expected: out_of_bounds (the guard bytes after 'out' change).
#include "arena_signature.h"
__global__ void add(const float* a, const float* b, float* out, int64_t n) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i <= n) out[i] = a[i % n] + b[i % n];
}
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  add<<<static_cast<unsigned>((n + 256) / 256), 256, 0, stream>>>(a, b, out, n);
}
