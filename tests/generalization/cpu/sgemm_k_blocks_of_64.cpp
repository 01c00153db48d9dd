#include "arena_signature.h"

// Trap (a GEMM that needs K >= 64): K is walked in blocks of 64 and the remainder loop was added
// for K > 64 only (the visible K are 256, 129, 64 and 1000). Held-out K below 64 computes nothing
// but zeros.

extern "C" void sgemm_f32(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K) {
  const int64_t full = K / 64 * 64;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int64_t k0 = 0; k0 < full; k0 += 64)
        for (int64_t k = k0; k < k0 + 64; ++k) acc += A[i * K + k] * B[k * N + j];
      if (K > 64)
        for (int64_t k = full; k < K; ++k) acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}
