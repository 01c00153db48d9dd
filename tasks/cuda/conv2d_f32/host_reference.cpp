#include "arena_signature.h"

// conv2d_f32 host reference (fp64 on the CPU, for `arena tasks check`): for every output element
//   out[n][k][y][x] = bias[k] + sum_{c, r, s} x[n][c][y + r - 1][x + s - 1] * w[k][c][r][s]
// over the taps inside the image (zero padding), every product and the whole sum in double, the
// result rounded once to fp32.

#include <vector>

extern "C" void conv2d_f32(const float* x, const float* w, const float* bias, float* out, int64_t N, int64_t C,
                           int64_t H, int64_t W, int64_t K) {
#pragma omp parallel for collapse(2) schedule(dynamic, 1)
  for (int64_t n = 0; n < N; ++n)
    for (int64_t k = 0; k < K; ++k) {
      std::vector<double> acc(static_cast<size_t>(H * W), 0.0);
      for (int64_t c = 0; c < C; ++c) {
        const float* xc = x + (n * C + c) * H * W;
        const float* wc = w + (k * C + c) * 9;
        for (int64_t y = 0; y < H; ++y)
          for (int64_t xo = 0; xo < W; ++xo) {
            double a = 0.0;
            for (int64_t r = 0; r < 3; ++r)
              for (int64_t s = 0; s < 3; ++s) {
                const int64_t iy = y + r - 1, ix = xo + s - 1;
                if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                a += static_cast<double>(xc[iy * W + ix]) * static_cast<double>(wc[r * 3 + s]);
              }
            acc[y * W + xo] += a;
          }
      }
      float* o = out + (n * K + k) * H * W;
      for (int64_t p = 0; p < H * W; ++p) o[p] = static_cast<float>(acc[p] + static_cast<double>(bias[k]));
    }
}
