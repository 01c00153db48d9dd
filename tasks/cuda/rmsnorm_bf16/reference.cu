#include "arena_signature.h"

// rmsnorm_bf16 reference: one warp per row. The mean of squares, the reciprocal RMS and each
// product x * inv_rms * w are computed in double; each result is narrowed to fp32 and rounded
// once to bf16 (nearest even), as the CPU reference does.

#include <math.h>

__global__ void reference_rmsnorm(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ w,
                                  __nv_bfloat16* __restrict__ y, int64_t rows, int64_t cols, float eps) {
  const int64_t row = static_cast<int64_t>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;  // whole warps leave together
  const __nv_bfloat16* xr = x + row * cols;
  __nv_bfloat16* yr = y + row * cols;

  double ss = 0.0;
  for (int64_t c = lane; c < cols; c += 32) {
    const double v = static_cast<double>(__bfloat162float(xr[c]));
    ss = fma(v, v, ss);
  }
  for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
  const double inv = 1.0 / sqrt(ss / static_cast<double>(cols) + static_cast<double>(eps));

  for (int64_t c = lane; c < cols; c += 32) {
    const double v = static_cast<double>(__bfloat162float(xr[c])) * inv * static_cast<double>(__bfloat162float(w[c]));
    yr[c] = __float2bfloat16_rn(static_cast<float>(v));
  }
}

extern "C" void rmsnorm_bf16(const __nv_bfloat16* x, const __nv_bfloat16* w, __nv_bfloat16* y, int64_t rows,
                             int64_t cols, float eps, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  const int warps = 8;
  const int64_t blocks = (rows + warps - 1) / warps;
  reference_rmsnorm<<<static_cast<unsigned>(blocks), warps * 32, 0, stream>>>(x, w, y, rows, cols, eps);
}
