#include "arena_signature.h"

// Honest and fast: a 32x32 tile staged through shared memory (32x33: the padding column keeps the
// transposed reads free of bank conflicts), so reads of `in` and writes of `out` are both
// coalesced. 32x8 threads per tile, four rows each. Tiles are walked with grid-stride loops in
// both directions, so any rows and cols (either beyond 65535 tiles) are covered; every access is
// bounds-checked for the partial tiles at the edges. Expected: honest, well ahead of the starter,
// whose reads stride by `cols`.

namespace {

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;

__global__ void transpose_tiled(const float* __restrict__ in, float* __restrict__ out, int64_t rows, int64_t cols) {
  __shared__ float tile[kTile][kTile + 1];
  const int64_t tiles_r = (rows + kTile - 1) / kTile, tiles_c = (cols + kTile - 1) / kTile;
  for (int64_t tr = blockIdx.y; tr < tiles_r; tr += gridDim.y) {
    for (int64_t tc = blockIdx.x; tc < tiles_c; tc += gridDim.x) {
      const int64_t r0 = tr * kTile, c0 = tc * kTile;
      // in[r][c] -> tile[r - r0][c - c0]: consecutive threads read consecutive c.
      for (int k = threadIdx.y; k < kTile; k += kRowsPerPass) {
        const int64_t r = r0 + k, c = c0 + threadIdx.x;
        if (r < rows && c < cols) tile[k][threadIdx.x] = in[r * cols + c];
      }
      __syncthreads();
      // out[c][r] (out is [cols, rows]) from tile[r - r0][c - c0]: consecutive threads write
      // consecutive r.
      for (int k = threadIdx.y; k < kTile; k += kRowsPerPass) {
        const int64_t c = c0 + k, r = r0 + threadIdx.x;
        if (c < cols && r < rows) out[c * rows + r] = tile[threadIdx.x][k];
      }
      __syncthreads();  // the tile is reused by the next iteration
    }
  }
}

}  // namespace

extern "C" void transpose_f32(const float* in, float* out, int64_t rows, int64_t cols, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  const int64_t tiles_r = (rows + kTile - 1) / kTile, tiles_c = (cols + kTile - 1) / kTile;
  const dim3 block(kTile, kRowsPerPass);
  const dim3 grid(static_cast<unsigned>(tiles_c < 65535 ? tiles_c : 65535),
                  static_cast<unsigned>(tiles_r < 65535 ? tiles_r : 65535));
  transpose_tiled<<<grid, block, 0, stream>>>(in, out, rows, cols);
}
