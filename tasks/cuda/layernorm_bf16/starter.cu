#include "arena_signature.h"

// layernorm_bf16 starter: one block of 256 threads per row, scalar bf16 loads, three passes over
// the row in global memory (the mean, the variance around it, then normalize and write), each
// reduction in fp32 through shared memory. Correct for every shape; make it faster.

// Threads per block, a power of two (the shared-memory reduction halves it): a knob for
// `arena run --agent autotune` (every candidate is correct).
constexpr int kThreads = 256;  // arena-knob: 64 128 256 512 1024

__device__ float block_sum(float v, float* red) {
  const int t = threadIdx.x;
  red[t] = v;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    __syncthreads();
  }
  const float total = red[0];
  __syncthreads();  // red is reused by the next reduction
  return total;
}

__global__ void layernorm_row_kernel(const __nv_bfloat16* x, const __nv_bfloat16* w, const __nv_bfloat16* b,
                                     __nv_bfloat16* y, int64_t cols, float eps) {
  __shared__ float red[kThreads];
  const __nv_bfloat16* xr = x + static_cast<int64_t>(blockIdx.x) * cols;
  __nv_bfloat16* yr = y + static_cast<int64_t>(blockIdx.x) * cols;
  const int t = threadIdx.x;

  // Pass 1: the mean.
  float s = 0.0f;
  for (int64_t c = t; c < cols; c += kThreads) s += __bfloat162float(xr[c]);
  const float mean = block_sum(s, red) / static_cast<float>(cols);

  // Pass 2: the (biased) variance around the mean.
  float ss = 0.0f;
  for (int64_t c = t; c < cols; c += kThreads) {
    const float d = __bfloat162float(xr[c]) - mean;
    ss += d * d;
  }
  const float inv_std = rsqrtf(block_sum(ss, red) / static_cast<float>(cols) + eps);

  // Pass 3: normalize, scale, shift.
  for (int64_t c = t; c < cols; c += kThreads)
    yr[c] = __float2bfloat16_rn((__bfloat162float(xr[c]) - mean) * inv_std * __bfloat162float(w[c]) +
                                __bfloat162float(b[c]));
}

extern "C" void layernorm_bf16(const __nv_bfloat16* x, const __nv_bfloat16* w, const __nv_bfloat16* b,
                               __nv_bfloat16* y, int64_t rows, int64_t cols, float eps, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  // One block per row: rows <= 2^22 fits gridDim.x (2^31 - 1).
  layernorm_row_kernel<<<static_cast<unsigned>(rows), kThreads, 0, stream>>>(x, w, b, y, cols, eps);
}
