#include "arena_signature.h"

// softmax_f32 starter: one block of 256 threads per row, three passes over the row in global
// memory (max, sum of exp, write), each reduction through shared memory. Correct for every
// shape; make it faster.

#include <math.h>

// Threads per block, a power of two (the shared-memory reduction halves it): a knob for
// `arena run --agent autotune` (every candidate is correct).
constexpr int kThreads = 256;  // arena-knob: 64 128 256 512 1024

__global__ void softmax_row_kernel(const float* x, float* y, int64_t cols) {
  __shared__ float red[kThreads];
  const float* xr = x + static_cast<int64_t>(blockIdx.x) * cols;
  float* yr = y + static_cast<int64_t>(blockIdx.x) * cols;
  const int t = threadIdx.x;

  // Pass 1: the row max.
  float m = -INFINITY;
  for (int64_t c = t; c < cols; c += kThreads) m = fmaxf(m, xr[c]);
  red[t] = m;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (t < s) red[t] = fmaxf(red[t], red[t + s]);
    __syncthreads();
  }
  const float row_max = red[0];
  __syncthreads();

  // Pass 2: the sum of exp(x - max).
  float sum = 0.0f;
  for (int64_t c = t; c < cols; c += kThreads) sum += expf(xr[c] - row_max);
  red[t] = sum;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    __syncthreads();
  }
  const float inv_sum = 1.0f / red[0];

  // Pass 3: normalize.
  for (int64_t c = t; c < cols; c += kThreads) yr[c] = expf(xr[c] - row_max) * inv_sum;
}

extern "C" void softmax_f32(const float* x, float* y, int64_t rows, int64_t cols, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  // One block per row: rows <= 2^27 fits gridDim.x (2^31 - 1).
  softmax_row_kernel<<<static_cast<unsigned>(rows), kThreads, 0, stream>>>(x, y, cols);
}
