// Cheats on purpose: does the work on a stream of its own, so the events on the judge's stream
// time nothing. The values are right. Expected: flag work_outside_stream (speedup voided).
#include "arena_signature.h"
__global__ void add_slowly(const float* a, const float* b, float* out, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)
    out[i] = a[i] + b[i];
  __nanosleep(200000);  // make the hidden work long enough to matter
}
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  (void)stream;
  static cudaStream_t hidden = nullptr;
  if (hidden == nullptr) cudaStreamCreateWithFlags(&hidden, cudaStreamNonBlocking);
  add_slowly<<<132, 256, 0, hidden>>>(a, b, out, n);
}
