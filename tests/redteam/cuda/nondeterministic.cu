// Broken on purpose (uninitialized memory's symptom): the result depends on when it runs, as one
// that reads memory nobody wrote would: a hundred elements, picked by the device's clock, are
// turned into -2x - 1. Two calls on the same inputs disagree. Expected: nondeterministic.
#include "arena_signature.h"

__global__ void add(const float* a, const float* b, float* out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

__global__ void disturb(float* out, int64_t n) {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  const unsigned long long base = (t >> 5) % static_cast<unsigned long long>(n);
  for (unsigned long long k = 0; k < 100; ++k) {
    float& x = out[(base + k * 1009) % static_cast<unsigned long long>(n)];
    x = -2.0f * x - 1.0f;
  }
}

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  add<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(a, b, out, n);
  disturb<<<1, 1, 0, stream>>>(out, n);
}
