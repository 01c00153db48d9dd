// Cheats on purpose (warm-up detection), the GPU's way: a timed call is one the judge has held
// its stream for (a kernel keeps the device busy while the call enqueues), so cudaStreamQuery on
// that stream answers "not ready" in a held call and "done" in a runner's first call and in the
// warm-up, which run on an idle stream. It adds the whole vectors when the stream is idle and only
// their first half when it is held, believing held calls are timed and their outputs never looked
// at. The judge holds its later checks too and checks every timed output: whichever call it is, a
// half-written output is found. Expected: failure wrong_values.
#include "arena_signature.h"

__global__ void add(const float* a, const float* b, float* out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  const bool timed = cudaStreamQuery(stream) == cudaErrorNotReady;
  const int64_t end = timed ? n / 2 : n;
  if (end > 0) add<<<static_cast<unsigned>((end + 255) / 256), 256, 0, stream>>>(a, b, out, end);
}
