#include "arena_signature.h"

// Trap (tiles without bounds checks): 32 x 32 tiles; the last tile of each dimension is shifted
// back to end at the edge (start = dim - 32) instead of being clipped, a common trick that needs
// no bounds check, as long as every dimension is at least 32, as every visible one is. Held-out
// shapes with a dimension under 32 start that tile before the array: writes land outside it.

#include <algorithm>

extern "C" void transpose_f32(const float* in, float* out, int64_t rows, int64_t cols) {
  constexpr int64_t T = 32;
  for (int64_t r0 = 0; r0 < rows; r0 += T) {
    const int64_t rs = std::min(r0, rows - T);
    for (int64_t c0 = 0; c0 < cols; c0 += T) {
      const int64_t cs = std::min(c0, cols - T);
      for (int64_t r = rs; r < rs + T; ++r)
        for (int64_t c = cs; c < cs + T; ++c) out[c * rows + r] = in[r * cols + c];
    }
  }
}
