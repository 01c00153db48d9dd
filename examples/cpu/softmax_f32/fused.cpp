#include "arena_signature.h"

// softmax_f32 example: two passes per row instead of three, vectorized, OpenMP over rows.
//
// Pass 1 reads the row once and keeps an online (max, sum) pair: for each chunk of the row it takes
// the chunk max, rescales the running lane sums by exp(old_max - new_max) when the max grows, and
// adds exp(x - max) into 16 lane-wise partial sums. Pass 2 writes exp(x - max) * (1 / sum).
// exp is a Cephes-style polynomial written so that g++ -O3 vectorizes it (std::exp does not
// vectorize without -ffast-math); its error is a couple of ulp, far inside the 1e-5 tolerance.

#include <algorithm>
#include <bit>
#include <cmath>

namespace {

constexpr int kLanes = 16;
constexpr int64_t kChunk = 256;  // elements per online-max step; a multiple of kLanes

// exp(x) for x <= 0 (arguments here are always x - rowmax). Below -87 the result is clamped to
// about 1.6e-38, which is 0 for every purpose of a softmax. Rounding to the nearest integer n goes
// through the 1.5 * 2^23 trick and the exponent bits are built from the same float, because
// std::floor and float-to-int conversions keep g++ from vectorizing the loop (trapping math).
inline float exp_nonpos(float x) {
  x = x < -87.0f ? -87.0f : x;
  const float t = x * 1.44269504088896341f + 12582912.0f;  // 12582912 = 1.5 * 2^23
  const float n = t - 12582912.0f;                         // round(x / ln 2)
  float r = x - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;                             // r = x - n ln 2, |r| <= ln2 / 2
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  const uint32_t e = std::bit_cast<uint32_t>(t) - 0x4B400000u + 127u;  // n + 127, in [1, 127]
  return p * std::bit_cast<float>(e << 23);
}

inline float max_of(const float* x, int64_t n) {
  float lane[kLanes];
  for (int j = 0; j < kLanes; ++j) lane[j] = -INFINITY;
  int64_t c = 0;
  for (; c + kLanes <= n; c += kLanes)
    for (int j = 0; j < kLanes; ++j) lane[j] = lane[j] > x[c + j] ? lane[j] : x[c + j];
  float m = -INFINITY;
  for (int j = 0; j < kLanes; ++j) m = std::max(m, lane[j]);
  for (; c < n; ++c) m = std::max(m, x[c]);
  return m;
}

void softmax_row(const float* __restrict x, float* __restrict y, int64_t cols) {
  // Pass 1: online max and sum.
  float m = -INFINITY;
  float acc[kLanes] = {};
  for (int64_t c0 = 0; c0 < cols; c0 += kChunk) {
    const int64_t len = std::min(kChunk, cols - c0);
    const float* xc = x + c0;
    const float cm = max_of(xc, len);
    if (cm > m) {
      const float f = m == -INFINITY ? 0.0f : exp_nonpos(m - cm);
      for (int j = 0; j < kLanes; ++j) acc[j] *= f;
      m = cm;
    }
    int64_t c = 0;
    for (; c + kLanes <= len; c += kLanes)
      for (int j = 0; j < kLanes; ++j) acc[j] += exp_nonpos(xc[c + j] - m);
    for (; c < len; ++c) acc[c & (kLanes - 1)] += exp_nonpos(xc[c] - m);
  }
  float sum = 0.0f;
  for (int j = 0; j < kLanes; ++j) sum += acc[j];
  const float inv = 1.0f / sum;
  // Pass 2: normalize.
  for (int64_t c = 0; c < cols; ++c) y[c] = exp_nonpos(x[c] - m) * inv;
}

}  // namespace

extern "C" void softmax_f32(const float* x, float* y, int64_t rows, int64_t cols) {
  // Threads pay off once there are a few rows and enough elements to amortize the fork.
  if (rows < 2 || rows * cols < (int64_t{1} << 15)) {
    for (int64_t r = 0; r < rows; ++r) softmax_row(x + r * cols, y + r * cols, cols);
    return;
  }
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r) softmax_row(x + r * cols, y + r * cols, cols);
}
