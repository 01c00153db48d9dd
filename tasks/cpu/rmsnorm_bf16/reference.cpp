#include "arena_signature.h"

// rmsnorm_bf16 reference: mean of squares and the scaling in double, each result rounded to bf16
// (round to nearest even) once it has been narrowed to fp32.

#include <cmath>

extern "C" void rmsnorm_bf16(const arena_bf16* x, const arena_bf16* w, arena_bf16* y, int64_t rows,
                             int64_t cols, float eps) {
  for (int64_t r = 0; r < rows; ++r) {
    const arena_bf16* xr = x + r * cols;
    arena_bf16* yr = y + r * cols;
    double ss = 0.0;
    for (int64_t c = 0; c < cols; ++c) {
      const double v = arena_bf16_to_float(xr[c]);
      ss += v * v;
    }
    const double inv = 1.0 / std::sqrt(ss / static_cast<double>(cols) + static_cast<double>(eps));
    for (int64_t c = 0; c < cols; ++c) {
      const double v = static_cast<double>(arena_bf16_to_float(xr[c])) * inv * arena_bf16_to_float(w[c]);
      yr[c] = arena_float_to_bf16(static_cast<float>(v));
    }
  }
}
