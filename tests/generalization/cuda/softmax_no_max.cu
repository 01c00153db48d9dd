#include "arena_signature.h"

// Trap (unstable reduction): the starter without its max pass, y = exp(x) / sum(exp(x)). The
// visible inputs are small, so it passes there; the held-out stress seed (heldout.magnitude: the
// inputs 100x larger) overflows expf to infinity, and inf / inf is NaN.

#include <math.h>

constexpr int kThreads = 256;

__global__ void softmax_no_max_kernel(const float* x, float* y, int64_t cols) {
  __shared__ float red[kThreads];
  const float* xr = x + static_cast<int64_t>(blockIdx.x) * cols;
  float* yr = y + static_cast<int64_t>(blockIdx.x) * cols;
  const int t = threadIdx.x;
  float sum = 0.0f;
  for (int64_t c = t; c < cols; c += kThreads) sum += expf(xr[c]);
  red[t] = sum;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    __syncthreads();
  }
  const float inv_sum = 1.0f / red[0];
  for (int64_t c = t; c < cols; c += kThreads) yr[c] = expf(xr[c]) * inv_sum;
}

extern "C" void softmax_f32(const float* x, float* y, int64_t rows, int64_t cols, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  softmax_no_max_kernel<<<static_cast<unsigned>(rows), kThreads, 0, stream>>>(x, y, cols);
}
