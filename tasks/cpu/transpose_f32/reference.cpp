#include "arena_signature.h"

// transpose_f32 reference: out[c][r] = in[r][c]. A copy; the result must match exactly.

extern "C" void transpose_f32(const float* in, float* out, int64_t rows, int64_t cols) {
  for (int64_t c = 0; c < cols; ++c)
    for (int64_t r = 0; r < rows; ++r) out[c * rows + r] = in[r * cols + c];
}
