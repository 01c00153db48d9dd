// Cheats on purpose (drift): correct for its first eight calls on a shape (the judge's checks, its
// warm-up and the first timed calls), then each later result drifts a little further off: call k
// scales the sum by 1 + (k - 8) * 1e-4, as an accumulating state or a degrading approximation
// would. Every timed output is checked, not only the first ones. Expected: failure wrong_values.
#include "arena_signature.h"

__global__ void add_scaled(const float* a, const float* b, float* out, int64_t n, float scale) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (a[i] + b[i]) * scale;
}

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  static int64_t last_n = -1;
  static int calls = 0;
  if (n != last_n) {
    last_n = n;
    calls = 0;
  }
  ++calls;
  if (n <= 0) return;
  const float scale = calls <= 8 ? 1.0f : 1.0f + static_cast<float>(calls - 8) * 1e-4f;
  add_scaled<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(a, b, out, n, scale);
}
