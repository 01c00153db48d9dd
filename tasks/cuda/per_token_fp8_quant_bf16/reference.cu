#include "arena_signature.h"

// per_token_fp8_quant_bf16 reference: one warp per row. amax = max |x| over the row is exact in
// fp32 (a maximum of bf16 magnitudes rounds nothing); scale = max(amax, 1e-10) / 448 is computed
// in double and rounded once to fp32 (the same value as a correctly rounded fp32 division), and
// each q = x / scale is formed in double (the quotient of a bf16 and an fp32 value; double
// rounding it is harmless, since an exact quotient that is not an fp8 midpoint is at least
// ~2^-29 relative away from one) and rounded once to fp8-e4m3, nearest even, saturating to
// +-448 (__NV_SATFINITE), as the CPU reference does.

#include <math.h>

constexpr float kFp8Max = 448.0f;  // the largest finite fp8-e4m3 value
constexpr float kEps = 1e-10f;     // amax floor: an all-zero row gets a tiny positive scale, not 0

__global__ void reference_per_token_fp8_quant(const __nv_bfloat16* __restrict__ x, __nv_fp8_e4m3* __restrict__ q,
                                              float* __restrict__ scales, int64_t tokens, int64_t hidden) {
  const int64_t row = static_cast<int64_t>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= tokens) return;  // whole warps leave together
  const __nv_bfloat16* xr = x + row * hidden;
  __nv_fp8_e4m3* qr = q + row * hidden;

  float amax = 0.0f;
  for (int64_t c = lane; c < hidden; c += 32) amax = fmaxf(amax, fabsf(__bfloat162float(xr[c])));
  for (int o = 16; o > 0; o >>= 1) amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, o));

  const float scale = static_cast<float>(static_cast<double>(fmaxf(amax, kEps)) / static_cast<double>(kFp8Max));
  if (lane == 0) scales[row] = scale;
  const double sd = static_cast<double>(scale);
  for (int64_t c = lane; c < hidden; c += 32) {
    const double v = static_cast<double>(__bfloat162float(xr[c])) / sd;
    qr[c].__x = __nv_cvt_double_to_fp8(v, __NV_SATFINITE, __NV_E4M3);
  }
}

extern "C" void per_token_fp8_quant_bf16(const __nv_bfloat16* x, __nv_fp8_e4m3* q, float* scales, int64_t tokens,
                                         int64_t hidden, cudaStream_t stream) {
  if (tokens <= 0) return;
  const int warps = 8;
  const int64_t blocks = (tokens + warps - 1) / warps;
  reference_per_token_fp8_quant<<<static_cast<unsigned>(blocks), warps * 32, 0, stream>>>(x, q, scales, tokens, hidden);
}
