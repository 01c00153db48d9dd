// Broken on purpose: every 1000th element is NaN. Expected: nan_inf.
#include "arena_signature.h"
__global__ void add(const float* a, const float* b, float* out, int64_t n) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = (i % 1000 == 7) ? __int_as_float(0x7FC00000) : a[i] + b[i];
}
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  add<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(a, b, out, n);
}
