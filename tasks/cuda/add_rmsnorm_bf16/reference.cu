#include "arena_signature.h"

// add_rmsnorm_bf16 reference: one warp per row. h = x + residual is exact in double; it is
// narrowed to fp32 and rounded once to bf16, and that rounded h is both residual_out and the
// input of the norm. The mean of squares of h, the reciprocal RMS and each h · inv_rms · w are
// computed in double, narrowed to fp32 and rounded once to bf16 (nearest even), as the CPU host
// reference does.

#include <math.h>

__device__ __nv_bfloat16 reference_add(__nv_bfloat16 a, __nv_bfloat16 b) {
  const double s = static_cast<double>(__bfloat162float(a)) + static_cast<double>(__bfloat162float(b));
  return __float2bfloat16_rn(static_cast<float>(s));
}

__global__ void reference_add_rmsnorm(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ residual,
                                      const __nv_bfloat16* __restrict__ w, __nv_bfloat16* __restrict__ y,
                                      __nv_bfloat16* __restrict__ residual_out, int64_t rows, int64_t cols,
                                      float eps) {
  const int64_t row = static_cast<int64_t>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;  // whole warps leave together
  const int64_t offset = row * cols;

  double ss = 0.0;
  for (int64_t c = lane; c < cols; c += 32) {
    const __nv_bfloat16 h = reference_add(x[offset + c], residual[offset + c]);
    residual_out[offset + c] = h;
    const double v = static_cast<double>(__bfloat162float(h));
    ss = fma(v, v, ss);
  }
  for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
  const double inv = 1.0 / sqrt(ss / static_cast<double>(cols) + static_cast<double>(eps));

  for (int64_t c = lane; c < cols; c += 32) {
    const double v = static_cast<double>(__bfloat162float(reference_add(x[offset + c], residual[offset + c])));
    y[offset + c] = __float2bfloat16_rn(static_cast<float>(v * inv * static_cast<double>(__bfloat162float(w[c]))));
  }
}

extern "C" void add_rmsnorm_bf16(const __nv_bfloat16* x, const __nv_bfloat16* residual, const __nv_bfloat16* w,
                                 __nv_bfloat16* y, __nv_bfloat16* residual_out, int64_t rows, int64_t cols, float eps,
                                 cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  const int warps = 8;
  const int64_t blocks = (rows + warps - 1) / warps;
  reference_add_rmsnorm<<<static_cast<unsigned>(blocks), warps * 32, 0, stream>>>(x, residual, w, y, residual_out,
                                                                                  rows, cols, eps);
}
