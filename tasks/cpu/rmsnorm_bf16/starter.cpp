#include "arena_signature.h"

// rmsnorm_bf16 starter: row by row, plain loops, single-threaded. Widens bf16 to fp32, sums the
// squares in fp32, then writes y = x * (1 / sqrt(mean(x^2) + eps)) * w rounded to bf16.
// Correct for every shape; make it faster.

#include <cmath>

extern "C" void rmsnorm_bf16(const arena_bf16* x, const arena_bf16* w, arena_bf16* y, int64_t rows,
                             int64_t cols, float eps) {
  for (int64_t r = 0; r < rows; ++r) {
    const arena_bf16* xr = x + r * cols;
    arena_bf16* yr = y + r * cols;
    float ss = 0.0f;
    for (int64_t c = 0; c < cols; ++c) {
      float v = arena_bf16_to_float(xr[c]);
      ss += v * v;
    }
    float inv = 1.0f / std::sqrt(ss / static_cast<float>(cols) + eps);
    for (int64_t c = 0; c < cols; ++c)
      yr[c] = arena_float_to_bf16(arena_bf16_to_float(xr[c]) * inv * arena_bf16_to_float(w[c]));
  }
}
