// Broken on purpose: the output is right, but input b is overwritten with it. Expected:
// input_mutated.
#include "arena_signature.h"
__global__ void add(const float* a, float* b, float* out, int64_t n) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) {
    out[i] = a[i] + b[i];
    b[i] = out[i];
  }
}
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  add<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(a, const_cast<float*>(b), out, n);
}
