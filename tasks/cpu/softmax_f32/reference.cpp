#include "arena_signature.h"

// softmax_f32 reference: subtracts the row max, computes exp and the row sum in double, and
// rounds each result to fp32 once.

#include <cmath>

extern "C" void softmax_f32(const float* x, float* y, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    double m = xr[0];
    for (int64_t c = 1; c < cols; ++c) m = std::fmax(m, (double)xr[c]);
    double sum = 0.0;
    for (int64_t c = 0; c < cols; ++c) sum += std::exp((double)xr[c] - m);
    for (int64_t c = 0; c < cols; ++c) yr[c] = (float)(std::exp((double)xr[c] - m) / sum);
  }
}
