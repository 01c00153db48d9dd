// Broken on purpose: asks for 200 KiB of dynamic shared memory without opting in (48 KiB is the
// default limit). Expected: launch_error.
#include "arena_signature.h"
__global__ void add(const float* a, const float* b, float* out, int64_t n) {
  extern __shared__ float scratch[];
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  scratch[threadIdx.x] = i < n ? a[i] : 0.0f;
  if (i < n) out[i] = scratch[threadIdx.x] + b[i];
}
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  add<<<static_cast<unsigned>((n + 255) / 256), 256, 200 * 1024, stream>>>(a, b, out, n);
}
