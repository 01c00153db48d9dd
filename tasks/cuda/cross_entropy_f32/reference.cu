#include "arena_signature.h"

// cross_entropy_f32 reference: one warp per row. The row max is exact in fp32; exp(x - max) and
// the row sum are computed in double, and the loss (max - x[label]) + log(sum) in double,
// rounded once to fp32.

#include <math.h>

__device__ double reference_warp_sum(double v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__device__ float reference_warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

__global__ void reference_cross_entropy(const float* __restrict__ logits, const int32_t* __restrict__ labels,
                                        float* __restrict__ loss, int64_t rows, int64_t vocab) {
  const int64_t warps_per_block = blockDim.x / 32;
  const int64_t row = static_cast<int64_t>(blockIdx.x) * warps_per_block + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;  // whole warps leave together
  const float* xr = logits + row * vocab;

  float m = -INFINITY;
  for (int64_t c = lane; c < vocab; c += 32) m = fmaxf(m, xr[c]);
  m = reference_warp_max(m);
  const double md = static_cast<double>(m);

  double s = 0.0;
  for (int64_t c = lane; c < vocab; c += 32) s += exp(static_cast<double>(xr[c]) - md);
  s = reference_warp_sum(s);

  if (lane == 0) {
    const double target = static_cast<double>(xr[labels[row]]);
    loss[row] = static_cast<float>((md - target) + log(s));
  }
}

extern "C" void cross_entropy_f32(const float* logits, const int32_t* labels, float* loss, int64_t rows, int64_t vocab,
                                  cudaStream_t stream) {
  if (rows <= 0 || vocab <= 0) return;
  const int warps = 8;
  const int64_t blocks = (rows + warps - 1) / warps;
  reference_cross_entropy<<<static_cast<unsigned>(blocks), warps * 32, 0, stream>>>(logits, labels, loss, rows, vocab);
}
