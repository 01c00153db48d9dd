// Broken on purpose: the last element is never written. Expected: wrong_values ("unwritten", in
// the tail), found by the checked calls on the device.
#include "arena_signature.h"
__global__ void add(const float* a, const float* b, float* out, int64_t n) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n - 1) out[i] = a[i] + b[i];
}
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  add<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(a, b, out, n);
}
