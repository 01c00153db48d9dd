// Broken on purpose: zeroes its output with a synchronous cudaMemset inside the call (a kernel on
// the legacy stream, which the call then waits for) before adding on `stream`. The judge holds
// every SM while the entry point enqueues, so the memset cannot run and the call waits until the
// hold gives up (5 s). Expected: crash, "blocked while the device was held" (with a one-thread
// hold the memset ran beside the hold: outside the timed window).
#include "arena_signature.h"
__global__ void add(const float* a, const float* b, float* out, int64_t n) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  cudaMemset(out, 0, static_cast<size_t>(n) * sizeof(float));
  add<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(a, b, out, n);
}
