#include "arena_signature.h"

// add_rmsnorm_bf16 host reference (fp64 on the CPU, for `arena tasks check`): h = x + residual
// (exact in double) narrowed to fp32 and rounded once to bf16; that h is residual_out and the
// input of the norm. The mean of squares and each h · inv_rms · w in double, narrowed to fp32 and
// rounded once to bf16. Validates reference.cu.

#include <cmath>

extern "C" void add_rmsnorm_bf16(const arena_bf16* x, const arena_bf16* residual, const arena_bf16* w, arena_bf16* y,
                                 arena_bf16* residual_out, int64_t rows, int64_t cols, float eps) {
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t offset = r * cols;
    double ss = 0.0;
    for (int64_t c = 0; c < cols; ++c) {
      const double s = static_cast<double>(arena_bf16_to_float(x[offset + c])) + arena_bf16_to_float(residual[offset + c]);
      const arena_bf16 h = arena_float_to_bf16(static_cast<float>(s));
      residual_out[offset + c] = h;
      const double v = arena_bf16_to_float(h);
      ss += v * v;
    }
    const double inv = 1.0 / std::sqrt(ss / static_cast<double>(cols) + static_cast<double>(eps));
    for (int64_t c = 0; c < cols; ++c) {
      const double v = arena_bf16_to_float(residual_out[offset + c]);
      y[offset + c] = arena_float_to_bf16(static_cast<float>(v * inv * arena_bf16_to_float(w[c])));
    }
  }
}
