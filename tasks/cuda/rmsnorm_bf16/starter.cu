#include "arena_signature.h"

// rmsnorm_bf16 starter: one block of 256 threads per row, scalar bf16 loads, the sum of squares
// in fp32 reduced through shared memory, then a second pass over the row in global memory to
// scale and write. Correct for every shape; make it faster.

// Threads per block, a power of two (the shared-memory reduction halves it): a knob for
// `arena run --agent autotune` (every candidate is correct).
constexpr int kThreads = 256;  // arena-knob: 64 128 256 512 1024

__global__ void rmsnorm_row_kernel(const __nv_bfloat16* x, const __nv_bfloat16* w, __nv_bfloat16* y, int64_t cols,
                                   float eps) {
  __shared__ float red[kThreads];
  const __nv_bfloat16* xr = x + static_cast<int64_t>(blockIdx.x) * cols;
  __nv_bfloat16* yr = y + static_cast<int64_t>(blockIdx.x) * cols;
  const int t = threadIdx.x;

  float ss = 0.0f;
  for (int64_t c = t; c < cols; c += kThreads) {
    const float v = __bfloat162float(xr[c]);
    ss += v * v;
  }
  red[t] = ss;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    __syncthreads();
  }
  const float inv_rms = rsqrtf(red[0] / static_cast<float>(cols) + eps);

  for (int64_t c = t; c < cols; c += kThreads)
    yr[c] = __float2bfloat16_rn(__bfloat162float(xr[c]) * inv_rms * __bfloat162float(w[c]));
}

extern "C" void rmsnorm_bf16(const __nv_bfloat16* x, const __nv_bfloat16* w, __nv_bfloat16* y, int64_t rows,
                             int64_t cols, float eps, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  // One block per row: rows <= 2^22 fits gridDim.x (2^31 - 1).
  rmsnorm_row_kernel<<<static_cast<unsigned>(rows), kThreads, 0, stream>>>(x, w, y, cols, eps);
}
