#include "arena_signature.h"

// sgemm_f32 reference: C = A * B accumulated in double (one row of C at a time, i-k-j order so the
// inner loop streams B), each result rounded to fp32 once.

#include <cstddef>
#include <vector>

extern "C" void sgemm_f32(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K) {
  std::vector<double> row(static_cast<std::size_t>(N));
  for (int64_t i = 0; i < M; ++i) {
    for (int64_t j = 0; j < N; ++j) row[j] = 0.0;
    for (int64_t k = 0; k < K; ++k) {
      const double a = A[i * K + k];
      const float* b = B + k * N;
      for (int64_t j = 0; j < N; ++j) row[j] += a * static_cast<double>(b[j]);
    }
    for (int64_t j = 0; j < N; ++j) C[i * N + j] = static_cast<float>(row[j]);
  }
}
