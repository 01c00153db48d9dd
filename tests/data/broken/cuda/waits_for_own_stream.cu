// Broken on purpose: adds on a stream of its own and waits for it inside the call
// (cudaStreamSynchronize), then returns with nothing on `stream`. The judge holds every SM while
// the entry point enqueues (a runner's first call aside), so the add cannot start and the call
// waits until the hold gives up (5 s). Expected: crash, "blocked while the device was held" (with
// a one-thread hold the add ran beside the hold, and the call passed).
#include "arena_signature.h"
__global__ void add(const float* a, const float* b, float* out, int64_t n) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  (void)stream;
  static cudaStream_t own = nullptr;
  if (own == nullptr) cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking);
  add<<<static_cast<unsigned>((n + 255) / 256), 256, 0, own>>>(a, b, out, n);
  cudaStreamSynchronize(own);
}
