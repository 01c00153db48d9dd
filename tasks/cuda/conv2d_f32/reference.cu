#include "arena_signature.h"

// conv2d_f32 reference: one thread per output element out[n][k][y][x], the textbook sum
//   out[n][k][y][x] = bias[k] + sum_{c, r, s} x[n][c][y + r - 1][x + s - 1] * w[k][c][r][s]
// over in-image taps only (zero padding), every product and the whole sum in double (products of
// fp32 values are exact in double), the result rounded once to fp32 (nearest), as the CPU
// reference does.

constexpr int kThreads = 256;

__global__ void reference_conv2d(const float* __restrict__ x, const float* __restrict__ w,
                                 const float* __restrict__ bias, float* __restrict__ out, int64_t N, int64_t C,
                                 int64_t H, int64_t W, int64_t K) {
  const int64_t total = N * K * H * W;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t ox = i % W, oy = (i / W) % H, k = (i / (W * H)) % K, n = i / (W * H * K);
    double acc = 0.0;
    for (int64_t c = 0; c < C; ++c)
      for (int64_t r = 0; r < 3; ++r)
        for (int64_t s = 0; s < 3; ++s) {
          const int64_t iy = oy + r - 1, ix = ox + s - 1;
          if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
          acc = fma(static_cast<double>(x[((n * C + c) * H + iy) * W + ix]),
                    static_cast<double>(w[((k * C + c) * 3 + r) * 3 + s]), acc);
        }
    out[i] = static_cast<float>(acc + static_cast<double>(bias[k]));
  }
}

extern "C" void conv2d_f32(const float* x, const float* w, const float* bias, float* out, int64_t N, int64_t C,
                           int64_t H, int64_t W, int64_t K, cudaStream_t stream) {
  const int64_t total = N * K * H * W;
  if (total <= 0) return;
  int64_t blocks = (total + kThreads - 1) / kThreads;
  if (blocks > (int64_t{1} << 20)) blocks = int64_t{1} << 20;  // grid-stride loop covers the rest
  reference_conv2d<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(x, w, bias, out, N, C, H, W, K);
}
