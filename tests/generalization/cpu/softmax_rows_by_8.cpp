#include "arena_signature.h"

// Trap (work split computed for the visible sizes): rows are dealt to 8 workers, rows / 8 each,
// with no remainder. Every visible row count (1024, 16384, 32, 8192) is a multiple of 8; held-out
// row counts that are not leave their last rows unwritten.

#include <cmath>

extern "C" void softmax_f32(const float* x, float* y, int64_t rows, int64_t cols) {
  const int64_t workers = 8, per = rows / workers;
#pragma omp parallel for
  for (int64_t w = 0; w < workers; ++w) {
    for (int64_t r = w * per; r < (w + 1) * per; ++r) {
      const float* xr = x + r * cols;
      float* yr = y + r * cols;
      float m = xr[0];
      for (int64_t c = 1; c < cols; ++c) m = std::fmax(m, xr[c]);
      float sum = 0.0f;
      for (int64_t c = 0; c < cols; ++c) sum += (yr[c] = std::exp(xr[c] - m));
      for (int64_t c = 0; c < cols; ++c) yr[c] /= sum;
    }
  }
}
