// Broken on purpose: writes its output on the first call only, leaving later calls' outputs as
// it found them. Expected: wrong_values ("a repeat call on the same inputs did not write its
// output (stale output)").
#include "arena_signature.h"
static int calls = 0;
__global__ void add(const float* a, const float* b, float* out, int64_t n) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  if (calls++ == 0) add<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(a, b, out, n);
}
