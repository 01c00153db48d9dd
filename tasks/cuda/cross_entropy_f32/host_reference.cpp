#include "arena_signature.h"

// cross_entropy_f32 host reference (fp64 on the CPU, for `arena tasks check`): per row the max,
// the sum of exp(x - max) and the loss (max - x[label]) + log(sum), all in double, rounded once
// to fp32.

#include <algorithm>
#include <cmath>

extern "C" void cross_entropy_f32(const float* logits, const int32_t* labels, float* loss, int64_t rows, int64_t vocab) {
#pragma omp parallel for schedule(dynamic, 16)
  for (int64_t r = 0; r < rows; ++r) {
    const float* x = logits + r * vocab;
    double m = -INFINITY;
    for (int64_t c = 0; c < vocab; ++c) m = std::max(m, static_cast<double>(x[c]));
    double s = 0.0;
    for (int64_t c = 0; c < vocab; ++c) s += std::exp(static_cast<double>(x[c]) - m);
    loss[r] = static_cast<float>((m - static_cast<double>(x[labels[r]])) + std::log(s));
  }
}
