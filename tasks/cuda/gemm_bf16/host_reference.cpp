#include "arena_signature.h"

// gemm_bf16 host reference (fp64 on the CPU, for `arena tasks check`): every product and the
// whole dot product in double, the result narrowed to fp32 and rounded once to bf16. Validates
// reference.cu on the visible shapes small enough for the host.

#include <vector>

extern "C" void gemm_bf16(const arena_bf16* A, const arena_bf16* B, arena_bf16* C, int64_t M, int64_t N, int64_t K) {
#pragma omp parallel
  {
    std::vector<double> row(static_cast<size_t>(N));
#pragma omp for schedule(dynamic, 4)
    for (int64_t i = 0; i < M; ++i) {
      for (int64_t j = 0; j < N; ++j) row[j] = 0.0;
      for (int64_t k = 0; k < K; ++k) {
        const double a = arena_bf16_to_float(A[i * K + k]);
        const arena_bf16* b = B + k * N;
        for (int64_t j = 0; j < N; ++j) row[j] += a * static_cast<double>(arena_bf16_to_float(b[j]));
      }
      for (int64_t j = 0; j < N; ++j) C[i * N + j] = arena_float_to_bf16(static_cast<float>(row[j]));
    }
  }
}
