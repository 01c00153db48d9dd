#include "arena_signature.h"

// layernorm_bf16 reference: one warp per row. The mean, the biased variance around it (a second
// pass), the reciprocal standard deviation and each (x - mean) · inv_std · w + b are computed in
// double; each result is narrowed to fp32 and rounded once to bf16 (nearest even), as the CPU
// host reference does.

#include <math.h>

__device__ double reference_warp_sum(double v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__global__ void reference_layernorm(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ w,
                                    const __nv_bfloat16* __restrict__ b, __nv_bfloat16* __restrict__ y, int64_t rows,
                                    int64_t cols, float eps) {
  const int64_t row = static_cast<int64_t>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;  // whole warps leave together
  const __nv_bfloat16* xr = x + row * cols;
  __nv_bfloat16* yr = y + row * cols;
  const double n = static_cast<double>(cols);

  double s = 0.0;
  for (int64_t c = lane; c < cols; c += 32) s += static_cast<double>(__bfloat162float(xr[c]));
  const double mean = reference_warp_sum(s) / n;

  double ss = 0.0;
  for (int64_t c = lane; c < cols; c += 32) {
    const double d = static_cast<double>(__bfloat162float(xr[c])) - mean;
    ss = fma(d, d, ss);
  }
  const double inv_std = 1.0 / sqrt(reference_warp_sum(ss) / n + static_cast<double>(eps));

  for (int64_t c = lane; c < cols; c += 32) {
    const double v = (static_cast<double>(__bfloat162float(xr[c])) - mean) * inv_std *
                         static_cast<double>(__bfloat162float(w[c])) +
                     static_cast<double>(__bfloat162float(b[c]));
    yr[c] = __float2bfloat16_rn(static_cast<float>(v));
  }
}

extern "C" void layernorm_bf16(const __nv_bfloat16* x, const __nv_bfloat16* w, const __nv_bfloat16* b,
                               __nv_bfloat16* y, int64_t rows, int64_t cols, float eps, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  const int warps = 8;
  const int64_t blocks = (rows + warps - 1) / warps;
  reference_layernorm<<<static_cast<unsigned>(blocks), warps * 32, 0, stream>>>(x, w, b, y, rows, cols, eps);
}
