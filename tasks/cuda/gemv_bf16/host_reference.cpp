#include "arena_signature.h"

// gemv_bf16 host reference (fp64 on the CPU, for `arena tasks check`): every product and the
// whole dot product in double, the result narrowed to fp32 and rounded once to bf16.

#include <vector>

extern "C" void gemv_bf16(const arena_bf16* A, const arena_bf16* x, arena_bf16* y, int64_t M, int64_t K) {
  std::vector<double> xd(static_cast<size_t>(K));
  for (int64_t k = 0; k < K; ++k) xd[k] = arena_bf16_to_float(x[k]);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < M; ++i) {
    const arena_bf16* a = A + i * K;
    double acc = 0.0;
    for (int64_t k = 0; k < K; ++k) acc += static_cast<double>(arena_bf16_to_float(a[k])) * xd[k];
    y[i] = arena_float_to_bf16(static_cast<float>(acc));
  }
}
