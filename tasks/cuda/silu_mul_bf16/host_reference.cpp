#include "arena_signature.h"

// silu_mul_bf16 host reference (fp64 on the CPU, for `arena tasks check`): g / (1 + exp(-g)) · u
// in double, narrowed to fp32 and rounded once to bf16. Validates reference.cu.

#include <cmath>

extern "C" void silu_mul_bf16(const arena_bf16* gate, const arena_bf16* up, arena_bf16* out, int64_t rows,
                              int64_t cols) {
  const int64_t n = rows * cols;
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    const double g = arena_bf16_to_float(gate[i]);
    const double u = arena_bf16_to_float(up[i]);
    out[i] = arena_float_to_bf16(static_cast<float>(g / (1.0 + std::exp(-g)) * u));
  }
}
