#include "arena_signature.h"

// rope_bf16 host reference (fp64 on the CPU, for `arena tasks check`): θ_i = 10000^(-2i/head_dim),
// the angle pos·θ_i, cos, sin and the rotate-half outputs in double, each narrowed to fp32 and
// rounded once to bf16.

#include <cmath>
#include <vector>

extern "C" void rope_bf16(const arena_bf16* x, const int32_t* positions, arena_bf16* out, int64_t tokens, int64_t heads,
                          int64_t head_dim) {
  const int64_t half = head_dim / 2;
  std::vector<double> theta(static_cast<size_t>(half));
  for (int64_t i = 0; i < half; ++i)
    theta[i] = std::pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(head_dim));
#pragma omp parallel for schedule(static)
  for (int64_t t = 0; t < tokens; ++t) {
    const double pos = static_cast<double>(positions[t]);
    for (int64_t i = 0; i < half; ++i) {
      const double angle = pos * theta[i];
      const double c = std::cos(angle), s = std::sin(angle);
      for (int64_t h = 0; h < heads; ++h) {
        const int64_t base = (t * heads + h) * head_dim;
        const double x1 = arena_bf16_to_float(x[base + i]);
        const double x2 = arena_bf16_to_float(x[base + i + half]);
        out[base + i] = arena_float_to_bf16(static_cast<float>(x1 * c - x2 * s));
        out[base + i + half] = arena_float_to_bf16(static_cast<float>(x2 * c + x1 * s));
      }
    }
  }
}
