// Broken on purpose: right wherever its output lies where the first call's did; elsewhere it
// also writes one element past the end of 'out'. Timed calls move from place to place in device
// memory (judge/placements.hpp), so only the guard check of a timed call on another placement
// sees it; with ARENA_PLACEMENTS=1 nothing moves and it passes.
// Expected: wrong_values, "wrote outside its output during timing".
#include "arena_signature.h"
__global__ void add(const float* a, const float* b, float* out, int64_t n, int64_t last) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
  if (i == 0 && last >= n) out[last] = 0.0f;
}
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  static const float* first = nullptr;
  if (first == nullptr) first = out;
  const int64_t last = out != first ? n : n - 1;
  add<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(a, b, out, n, last);
}
