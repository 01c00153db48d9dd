#include "arena_signature.h"

// sgemm_f32 starter: C = A * B with the textbook i-j-k triple loop, one fp32 accumulator per
// output element, single-threaded. Correct for every shape; make it faster.

extern "C" void sgemm_f32(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K) {
  for (int64_t i = 0; i < M; ++i) {
    for (int64_t j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int64_t k = 0; k < K; ++k) acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
  }
}
