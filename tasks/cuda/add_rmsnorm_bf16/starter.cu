#include "arena_signature.h"

// add_rmsnorm_bf16 starter: one block of 256 threads per row, scalar bf16 loads. Pass 1 forms
// h = bf16(x + residual), writes residual_out and sums h^2 in fp32 (reduced through shared
// memory); pass 2 reads x and residual again from global memory, re-forms h, scales and writes y.
// Correct for every shape; make it faster.

// Threads per block, a power of two (the shared-memory reduction halves it): a knob for
// `arena run --agent autotune` (every candidate is correct).
constexpr int kThreads = 256;  // arena-knob: 64 128 256 512 1024

__device__ __nv_bfloat16 add_rounded(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __float2bfloat16_rn(__bfloat162float(a) + __bfloat162float(b));
}

__global__ void add_rmsnorm_row_kernel(const __nv_bfloat16* x, const __nv_bfloat16* residual, const __nv_bfloat16* w,
                                       __nv_bfloat16* y, __nv_bfloat16* residual_out, int64_t cols, float eps) {
  __shared__ float red[kThreads];
  const int64_t offset = static_cast<int64_t>(blockIdx.x) * cols;
  const int t = threadIdx.x;

  float ss = 0.0f;
  for (int64_t c = t; c < cols; c += kThreads) {
    const __nv_bfloat16 h = add_rounded(x[offset + c], residual[offset + c]);
    residual_out[offset + c] = h;
    const float v = __bfloat162float(h);
    ss += v * v;
  }
  red[t] = ss;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    __syncthreads();
  }
  const float inv_rms = rsqrtf(red[0] / static_cast<float>(cols) + eps);

  for (int64_t c = t; c < cols; c += kThreads) {
    const float v = __bfloat162float(add_rounded(x[offset + c], residual[offset + c]));
    y[offset + c] = __float2bfloat16_rn(v * inv_rms * __bfloat162float(w[c]));
  }
}

extern "C" void add_rmsnorm_bf16(const __nv_bfloat16* x, const __nv_bfloat16* residual, const __nv_bfloat16* w,
                                 __nv_bfloat16* y, __nv_bfloat16* residual_out, int64_t rows, int64_t cols, float eps,
                                 cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  // One block per row: rows <= 2^22 fits gridDim.x (2^31 - 1).
  add_rmsnorm_row_kernel<<<static_cast<unsigned>(rows), kThreads, 0, stream>>>(x, residual, w, y, residual_out, cols,
                                                                               eps);
}
