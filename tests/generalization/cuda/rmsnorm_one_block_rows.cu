#include "arena_signature.h"

// Trap (fast only when a row fits one block): the row is held in registers, 8 elements per
// thread, by one block of up to 1024 threads (several short rows share a block): one read of x,
// 16-byte loads where the row allows, warp-shuffle reductions. That covers rows of up to 8192
// columns, which is every visible shape (128 ... 8192). Longer rows take a fallback written for
// correctness only and never timed: one warp per row, scalar loads, two passes. Correct on every
// shape; on a held-out shape with long rows and few of them (16 x 65536) it is several times
// slower than the starter. Expected: every shape correct, performance_collapse on held-out.

constexpr int kPerThread = 8;
constexpr int kMaxThreads = 1024;

template <bool kVector>
__global__ void rmsnorm_in_registers(const __nv_bfloat16* x, const __nv_bfloat16* w, __nv_bfloat16* y, int64_t rows,
                                     int64_t cols, float eps) {
  __shared__ float partial[kMaxThreads / 32];
  const int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.y + threadIdx.y;
  const int t = threadIdx.x, threads = blockDim.x, warps = threads / 32;
  const bool active = row < rows;
  float v[kPerThread];
  float ss = 0.0f;
  if (active) {
    const __nv_bfloat16* xr = x + row * cols;
    if (kVector) {
      const int64_t c0 = static_cast<int64_t>(t) * kPerThread;
      if (c0 < cols) {
        const uint4 u = *reinterpret_cast<const uint4*>(xr + c0);
        const auto* h = reinterpret_cast<const __nv_bfloat16*>(&u);
        for (int k = 0; k < kPerThread; ++k) v[k] = __bfloat162float(h[k]);
      } else {
        for (int k = 0; k < kPerThread; ++k) v[k] = 0.0f;
      }
    } else {
      for (int k = 0; k < kPerThread; ++k) {
        const int64_t c = t + static_cast<int64_t>(k) * threads;
        v[k] = c < cols ? __bfloat162float(xr[c]) : 0.0f;
      }
    }
    for (int k = 0; k < kPerThread; ++k) ss += v[k] * v[k];
  }
  for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
  if (warps > 1) {  // the row's warps add their partial sums (blockDim.x * blockDim.y <= 1024)
    float* mine = partial + threadIdx.y * warps;
    if (t % 32 == 0) mine[t / 32] = ss;
    __syncthreads();
    ss = 0.0f;
    for (int i = 0; i < warps; ++i) ss += mine[i];
  }
  if (!active) return;
  const float inv_rms = rsqrtf(ss / static_cast<float>(cols) + eps);
  __nv_bfloat16* yr = y + row * cols;
  if (kVector) {
    const int64_t c0 = static_cast<int64_t>(t) * kPerThread;
    if (c0 < cols) {
      const uint4 wu = *reinterpret_cast<const uint4*>(w + c0);
      const auto* wh = reinterpret_cast<const __nv_bfloat16*>(&wu);
      uint4 out;
      auto* oh = reinterpret_cast<__nv_bfloat16*>(&out);
      for (int k = 0; k < kPerThread; ++k) oh[k] = __float2bfloat16_rn(v[k] * inv_rms * __bfloat162float(wh[k]));
      *reinterpret_cast<uint4*>(yr + c0) = out;
    }
  } else {
    for (int k = 0; k < kPerThread; ++k) {
      const int64_t c = t + static_cast<int64_t>(k) * threads;
      if (c < cols) yr[c] = __float2bfloat16_rn(v[k] * inv_rms * __bfloat162float(w[c]));
    }
  }
}

// The fallback for rows longer than one block holds: correct, not tuned.
__global__ void rmsnorm_warp_per_row(const __nv_bfloat16* x, const __nv_bfloat16* w, __nv_bfloat16* y, int64_t rows,
                                     int64_t cols, float eps) {
  const int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.y + threadIdx.y;
  if (row >= rows) return;
  const __nv_bfloat16* xr = x + row * cols;
  __nv_bfloat16* yr = y + row * cols;
  float ss = 0.0f;
  for (int64_t c = threadIdx.x; c < cols; c += 32) {
    const float v = __bfloat162float(xr[c]);
    ss += v * v;
  }
  for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
  const float inv_rms = rsqrtf(ss / static_cast<float>(cols) + eps);
  for (int64_t c = threadIdx.x; c < cols; c += 32)
    yr[c] = __float2bfloat16_rn(__bfloat162float(xr[c]) * inv_rms * __bfloat162float(w[c]));
}

extern "C" void rmsnorm_bf16(const __nv_bfloat16* x, const __nv_bfloat16* w, __nv_bfloat16* y, int64_t rows,
                             int64_t cols, float eps, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  if (cols <= static_cast<int64_t>(kPerThread) * kMaxThreads) {
    const int64_t per_row = (cols + kPerThread - 1) / kPerThread;
    const int threads = static_cast<int>((per_row + 31) / 32 * 32);  // 32 ... 1024
    const int rows_per_block = threads >= 256 ? 1 : 256 / threads;
    const dim3 block(threads, rows_per_block);
    const auto blocks = static_cast<unsigned>((rows + rows_per_block - 1) / rows_per_block);
    if (cols % kPerThread == 0)
      rmsnorm_in_registers<true><<<blocks, block, 0, stream>>>(x, w, y, rows, cols, eps);
    else
      rmsnorm_in_registers<false><<<blocks, block, 0, stream>>>(x, w, y, rows, cols, eps);
    return;
  }
  const dim3 block(32, 8);
  rmsnorm_warp_per_row<<<static_cast<unsigned>((rows + 7) / 8), block, 0, stream>>>(x, w, y, rows, cols, eps);
}
