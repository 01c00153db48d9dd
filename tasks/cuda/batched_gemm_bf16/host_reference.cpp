#include "arena_signature.h"

// batched_gemm_bf16 host reference (fp64 on the CPU, for `arena tasks check`): for every batch
// entry, every product and the whole dot product in double, the result narrowed to fp32 and
// rounded once to bf16. Validates reference.cu on the visible shapes small enough for the host.

#include <vector>

extern "C" void batched_gemm_bf16(const arena_bf16* A, const arena_bf16* B, arena_bf16* C, int64_t batch, int64_t M,
                                  int64_t N, int64_t K) {
#pragma omp parallel
  {
    std::vector<double> row(static_cast<size_t>(N));
    // One (batch entry, row of C) pair per iteration, so small batches and small M both spread.
#pragma omp for schedule(dynamic, 4)
    for (int64_t bi = 0; bi < batch * M; ++bi) {
      const int64_t b = bi / M, i = bi % M;
      const arena_bf16* a = A + b * M * K + i * K;
      const arena_bf16* bm = B + b * K * N;
      for (int64_t j = 0; j < N; ++j) row[j] = 0.0;
      for (int64_t k = 0; k < K; ++k) {
        const double av = arena_bf16_to_float(a[k]);
        const arena_bf16* brow = bm + k * N;
        for (int64_t j = 0; j < N; ++j) row[j] += av * static_cast<double>(arena_bf16_to_float(brow[j]));
      }
      arena_bf16* c = C + b * M * N + i * N;
      for (int64_t j = 0; j < N; ++j) c[j] = arena_float_to_bf16(static_cast<float>(row[j]));
    }
  }
}
