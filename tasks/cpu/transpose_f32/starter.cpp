#include "arena_signature.h"

// transpose_f32 starter: out[c][r] = in[r][c], element by element, single-threaded. Reads are
// contiguous, writes stride by `rows` floats. Correct for every shape; make it faster.

extern "C" void transpose_f32(const float* in, float* out, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) out[c * rows + r] = in[r * cols + c];
}
