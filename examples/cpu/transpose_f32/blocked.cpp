#include "arena_signature.h"

// transpose_f32 example: tiled transpose. Each kTile x kTile tile of `in` (a few KB) is read while
// it sits in L1, and written out as kTile contiguous runs of `out`, so neither side walks memory
// with a large stride for long. Tiles are spread over OpenMP threads; edge tiles are clipped, so
// any rows and cols work.

#include <algorithm>

namespace {

constexpr int64_t kTile = 32;

inline void transpose_tile(const float* __restrict in, float* __restrict out, int64_t rows, int64_t cols,
                           int64_t r0, int64_t c0) {
  const int64_t r1 = std::min(r0 + kTile, rows);
  const int64_t c1 = std::min(c0 + kTile, cols);
  if (r1 - r0 == kTile && c1 - c0 == kTile) {
    // Full tile: fixed trip counts let the compiler unroll and vectorize the gathers.
    for (int64_t c = 0; c < kTile; ++c) {
      float* o = out + (c0 + c) * rows + r0;
      const float* i = in + r0 * cols + c0 + c;
      for (int64_t r = 0; r < kTile; ++r) o[r] = i[r * cols];
    }
    return;
  }
  for (int64_t c = c0; c < c1; ++c)
    for (int64_t r = r0; r < r1; ++r) out[c * rows + r] = in[r * cols + c];
}

}  // namespace

extern "C" void transpose_f32(const float* in, float* out, int64_t rows, int64_t cols) {
  const int64_t tr = (rows + kTile - 1) / kTile;
  const int64_t tc = (cols + kTile - 1) / kTile;
  const bool parallel = rows * cols >= (int64_t{1} << 16);
#pragma omp parallel for collapse(2) schedule(static) if (parallel)
  for (int64_t bi = 0; bi < tr; ++bi)
    for (int64_t bj = 0; bj < tc; ++bj) transpose_tile(in, out, rows, cols, bi * kTile, bj * kTile);
}
