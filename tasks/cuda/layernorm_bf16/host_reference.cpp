#include "arena_signature.h"

// layernorm_bf16 host reference (fp64 on the CPU, for `arena tasks check`): the mean, the biased
// variance around it and each (x - mean) / sqrt(var + eps) · w + b in double, narrowed to fp32
// and rounded once to bf16. Validates reference.cu.

#include <cmath>

extern "C" void layernorm_bf16(const arena_bf16* x, const arena_bf16* w, const arena_bf16* b, arena_bf16* y,
                               int64_t rows, int64_t cols, float eps) {
  const double n = static_cast<double>(cols);
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r) {
    const arena_bf16* xr = x + r * cols;
    arena_bf16* yr = y + r * cols;
    double s = 0.0;
    for (int64_t c = 0; c < cols; ++c) s += arena_bf16_to_float(xr[c]);
    const double mean = s / n;
    double ss = 0.0;
    for (int64_t c = 0; c < cols; ++c) {
      const double d = arena_bf16_to_float(xr[c]) - mean;
      ss += d * d;
    }
    const double inv_std = 1.0 / std::sqrt(ss / n + static_cast<double>(eps));
    for (int64_t c = 0; c < cols; ++c) {
      const double v = (arena_bf16_to_float(xr[c]) - mean) * inv_std * arena_bf16_to_float(w[c]) +
                       static_cast<double>(arena_bf16_to_float(b[c]));
      yr[c] = arena_float_to_bf16(static_cast<float>(v));
    }
  }
}
