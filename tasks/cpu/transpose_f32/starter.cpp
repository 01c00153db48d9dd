#include "arena_signature.h"

// transpose_f32 starter: out[c][r] = in[r][c], element by element, single-threaded. Reads are
// contiguous, writes stride by `rows` floats. Correct for every shape; make it faster.
//
// Knob (for `arena run --agent autotune`): ROW_BLOCK rows of `in` are walked together, column by
// column, so that each column writes ROW_BLOCK neighbouring floats of `out`. The default 1 is the
// plain loop.
#define ROW_BLOCK 1  // arena-knob: 1 2 4 8 16 32 64

extern "C" void transpose_f32(const float* in, float* out, int64_t rows, int64_t cols) {
  for (int64_t r0 = 0; r0 < rows; r0 += ROW_BLOCK) {
    const int64_t r1 = r0 + ROW_BLOCK < rows ? r0 + ROW_BLOCK : rows;
    for (int64_t c = 0; c < cols; ++c)
      for (int64_t r = r0; r < r1; ++r) out[c * rows + r] = in[r * cols + c];
  }
}
