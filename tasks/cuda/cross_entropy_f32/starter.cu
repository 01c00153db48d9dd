#include "arena_signature.h"

// cross_entropy_f32 starter: one block of 256 threads per row, two passes over the row in global
// memory (the row max, then the sum of exp(x - max)), each reduced through shared memory; thread
// 0 writes (max - logits[label]) + log(sum). Correct for every shape; make it faster.

#include <math.h>

// Threads per block, a power of two (the shared-memory reduction halves it): a knob for
// `arena run --agent autotune` (every candidate is correct).
constexpr int kThreads = 256;  // arena-knob: 64 128 256 512 1024

__global__ void cross_entropy_row_kernel(const float* logits, const int32_t* labels, float* loss, int64_t vocab) {
  __shared__ float red[kThreads];
  const int64_t row = blockIdx.x;
  const float* xr = logits + row * vocab;
  const int t = threadIdx.x;

  // Pass 1: the row max.
  float m = -INFINITY;
  for (int64_t c = t; c < vocab; c += kThreads) m = fmaxf(m, xr[c]);
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
  for (int64_t c = t; c < vocab; c += kThreads) sum += expf(xr[c] - row_max);
  red[t] = sum;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    __syncthreads();
  }

  // logsumexp - x[label], with max - x[label] formed first (exact for nearby values).
  if (t == 0) loss[row] = (row_max - xr[labels[row]]) + logf(red[0]);
}

extern "C" void cross_entropy_f32(const float* logits, const int32_t* labels, float* loss, int64_t rows, int64_t vocab,
                                  cudaStream_t stream) {
  if (rows <= 0 || vocab <= 0) return;
  // One block per row: rows <= 2^22 fits gridDim.x (2^31 - 1).
  cross_entropy_row_kernel<<<static_cast<unsigned>(rows), kThreads, 0, stream>>>(logits, labels, loss, vocab);
}
