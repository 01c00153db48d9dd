#include "arena_signature.h"

// softmax_f32 starter: row by row, three plain passes (max, exp and sum, normalize),
// single-threaded, fp32 except the row sum, which one sequential chain accumulates in double: in
// fp32 a chain over a long row (cols = 262144, inputs 100x larger) drifts past the tolerance, as
// terms below half an ulp of the sum are dropped. Correct for every shape; make it faster.

#include <cmath>

extern "C" void softmax_f32(const float* x, float* y, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    float m = xr[0];
    for (int64_t c = 1; c < cols; ++c)
      if (xr[c] > m) m = xr[c];
    double sum = 0.0;
    for (int64_t c = 0; c < cols; ++c) {
      float e = std::exp(xr[c] - m);
      yr[c] = e;
      sum += e;
    }
    const float s = static_cast<float>(sum);
    for (int64_t c = 0; c < cols; ++c) yr[c] = yr[c] / s;
  }
}
