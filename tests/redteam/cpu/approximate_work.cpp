// Cheats on purpose (approximate work): the softmax normalizer is estimated from every other
// element of the row and doubled, halving the exp work of the reduction. For smooth logits the
// estimate is close; for the judge's random inputs it is off by ~1/sqrt(cols) relative, far beyond
// the 1e-5 tolerance. Expected: failure wrong_values.
#include <cmath>

#include "arena_signature.h"

extern "C" void softmax_f32(const float* x, float* y, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    float m = xr[0];
    for (int64_t c = 1; c < cols; ++c) m = std::fmax(m, xr[c]);
    float sampled = 0.0f;
    for (int64_t c = 0; c < cols; c += 2) sampled += std::exp(xr[c] - m);
    const float sum = sampled * static_cast<float>(cols) / static_cast<float>((cols + 1) / 2);
    for (int64_t c = 0; c < cols; ++c) yr[c] = std::exp(xr[c] - m) / sum;
  }
}
