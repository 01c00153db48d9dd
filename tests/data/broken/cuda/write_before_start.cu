// Broken on purpose: thread 0 also writes the element before out[0]. Expected: out_of_bounds
// ("before the start of 'out'").
#include "arena_signature.h"
__global__ void add(const float* a, const float* b, float* out, int64_t n) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
  if (i == 0) out[-1] = 0.0f;
}
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  add<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(a, b, out, n);
}
