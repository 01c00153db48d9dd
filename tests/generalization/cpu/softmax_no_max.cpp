#include "arena_signature.h"

// Trap (unstable reduction): exp(x) / sum(exp(x)) without subtracting the row's maximum. The
// visible inputs are small, so it passes there; the held-out stress seed (heldout.magnitude: the
// inputs 100x larger) overflows exp to infinity, and inf / inf is NaN.

#include <cmath>

extern "C" void softmax_f32(const float* x, float* y, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    float sum = 0.0f;
    for (int64_t c = 0; c < cols; ++c) sum += (yr[c] = std::exp(xr[c]));
    for (int64_t c = 0; c < cols; ++c) yr[c] /= sum;
  }
}
