#include "arena_signature.h"

// Trap (a tile with no bounds check): each block normalizes a tile of 4 rows, one warp per row,
// and never checks the row against `rows`. Every visible row count (1024, 4096, 65536, 16384) is
// a multiple of 4, so the tiles fit exactly; a held-out row count that is not writes up to 3 rows
// past the end of y (into the judge's guard bytes). Expected: boundary_tiles.

constexpr int kRowsPerBlock = 4;

__global__ void rmsnorm_tile_kernel(const __nv_bfloat16* x, const __nv_bfloat16* w, __nv_bfloat16* y, int64_t cols,
                                    float eps) {
  const int64_t row = static_cast<int64_t>(blockIdx.x) * kRowsPerBlock + threadIdx.y;  // no `row < rows`
  const __nv_bfloat16* xr = x + row * cols;
  __nv_bfloat16* yr = y + row * cols;
  float ss = 0.0f;
  for (int64_t c = threadIdx.x; c < cols; c += 32) {
    const float v = __bfloat162float(xr[c]);
    ss += v * v;
  }
  for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
  const float inv_rms = rsqrtf(ss / static_cast<float>(cols) + eps);
  for (int64_t c = threadIdx.x; c < cols; c += 32)
    yr[c] = __float2bfloat16_rn(__bfloat162float(xr[c]) * inv_rms * __bfloat162float(w[c]));
}

extern "C" void rmsnorm_bf16(const __nv_bfloat16* x, const __nv_bfloat16* w, __nv_bfloat16* y, int64_t rows,
                             int64_t cols, float eps, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  const dim3 block(32, kRowsPerBlock);
  const auto blocks = static_cast<unsigned>((rows + kRowsPerBlock - 1) / kRowsPerBlock);
  rmsnorm_tile_kernel<<<blocks, block, 0, stream>>>(x, w, y, cols, eps);
}
