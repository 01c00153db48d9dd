#include "arena_signature.h"

// gelu_bf16 host reference (fp64 on the CPU, for `arena tasks check`): 0.5 · x · (1 + erf(x /
// sqrt(2))) in double, narrowed to fp32 and rounded once to bf16. Validates reference.cu.

#include <cmath>

extern "C" void gelu_bf16(const arena_bf16* x, arena_bf16* out, int64_t n) {
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    const double v = arena_bf16_to_float(x[i]);
    out[i] = arena_float_to_bf16(static_cast<float>(0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0)))));
  }
}
