#include "arena_signature.h"

// per_token_fp8_quant_bf16 starter: one block of 256 threads per row, two passes over the row in
// global memory with scalar bf16 loads: the row's max |x| reduced through shared memory, then
// q = fp8(x / scale) in fp32 (the __nv_fp8_e4m3 constructor rounds to nearest even and saturates
// to +-448). Correct for every shape; make it faster.

#include <math.h>

// Threads per block, a power of two (the shared-memory reduction halves it): a knob for
// `arena run --agent autotune` (every candidate is correct).
constexpr int kThreads = 256;  // arena-knob: 64 128 256 512 1024

__global__ void quant_row_kernel(const __nv_bfloat16* x, __nv_fp8_e4m3* q, float* scales, int64_t hidden) {
  __shared__ float red[kThreads];
  const int64_t row = blockIdx.x;
  const __nv_bfloat16* xr = x + row * hidden;
  __nv_fp8_e4m3* qr = q + row * hidden;
  const int t = threadIdx.x;

  // Pass 1: the row's largest magnitude.
  float amax = 0.0f;
  for (int64_t c = t; c < hidden; c += kThreads) amax = fmaxf(amax, fabsf(__bfloat162float(xr[c])));
  red[t] = amax;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (t < s) red[t] = fmaxf(red[t], red[t + s]);
    __syncthreads();
  }
  const float scale = fmaxf(red[0], 1e-10f) / 448.0f;
  if (t == 0) scales[row] = scale;

  // Pass 2: quantize.
  for (int64_t c = t; c < hidden; c += kThreads) qr[c] = __nv_fp8_e4m3(__bfloat162float(xr[c]) / scale);
}

extern "C" void per_token_fp8_quant_bf16(const __nv_bfloat16* x, __nv_fp8_e4m3* q, float* scales, int64_t tokens,
                                         int64_t hidden, cudaStream_t stream) {
  if (tokens <= 0) return;
  // One block per row: tokens <= 2^20 fits gridDim.x (2^31 - 1).
  quant_row_kernel<<<static_cast<unsigned>(tokens), kThreads, 0, stream>>>(x, q, scales, hidden);
}
