#include "arena_signature.h"

// conv2d_f32 starter: one thread per output element out[n][k][y][x], fp32 accumulation over the
// input channels and the 3x3 window, taps outside the image skipped (zero padding), bias added
// first. Every x and w value is read straight from global memory (neighbouring threads share
// them only through the caches); no shared-memory tiling, no register blocking. Correct for every
// legal shape; make it faster.

// Threads per block: a knob for `arena run --agent autotune` (every candidate is correct).
constexpr int kThreads = 256;  // arena-knob: 64 128 256 512 1024

__global__ void conv2d_naive_kernel(const float* x, const float* w, const float* bias, float* out, int64_t N,
                                    int64_t C, int64_t H, int64_t W, int64_t K) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * kThreads + threadIdx.x;  // flat index into out
  if (i >= N * K * H * W) return;
  const int64_t ox = i % W, oy = (i / W) % H, k = (i / (W * H)) % K, n = i / (W * H * K);

  float acc = bias[k];
  for (int64_t c = 0; c < C; ++c) {
    const float* xc = x + (n * C + c) * H * W;
    const float* wc = w + (k * C + c) * 9;
    for (int r = 0; r < 3; ++r) {
      const int64_t iy = oy + r - 1;  // padding 1: tap r of output row oy reads input row oy + r - 1
      if (iy < 0 || iy >= H) continue;
      for (int s = 0; s < 3; ++s) {
        const int64_t ix = ox + s - 1;
        if (ix < 0 || ix >= W) continue;
        acc += xc[iy * W + ix] * wc[r * 3 + s];
      }
    }
  }
  out[i] = acc;
}

extern "C" void conv2d_f32(const float* x, const float* w, const float* bias, float* out, int64_t N, int64_t C,
                           int64_t H, int64_t W, int64_t K, cudaStream_t stream) {
  const int64_t total = N * K * H * W;  // <= 2^31 (memory cap), so blocks <= 2^23 fits gridDim.x
  if (total <= 0) return;
  const int64_t blocks = (total + kThreads - 1) / kThreads;
  conv2d_naive_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(x, w, bias, out, N, C, H, W, K);
}
