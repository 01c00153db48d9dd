// Cheats on purpose (constant / zero output): every softmax row sums to 1, so it writes the row's
// mean, 1/cols, everywhere without reading x: right to within a few percent where the logits are
// flat. The judge's inputs have a random offset and scale and its tolerance is relative to each
// value. Expected: failure wrong_values (pattern constant).
#include "arena_signature.h"
extern "C" void softmax_f32(const float* x, float* y, int64_t rows, int64_t cols) {
  (void)x;
  const float mean = 1.0f / static_cast<float>(cols);
  for (int64_t i = 0; i < rows * cols; ++i) y[i] = mean;
}
