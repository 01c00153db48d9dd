#include "arena_signature.h"

// rmsnorm_bf16 example: vectorized rows, OpenMP over rows.
// The sum of squares goes into 16 fp32 lanes (so the loop vectorizes without reassociating one
// accumulator); bf16 <-> fp32 are bit operations written so that g++ -O3 vectorizes them, with
// the same round-to-nearest-even as arena_float_to_bf16.

#include <bit>
#include <cmath>

namespace {

constexpr int kLanes = 16;

inline float bf16_to_f32(arena_bf16 v) { return std::bit_cast<float>(static_cast<uint32_t>(v) << 16); }

inline arena_bf16 f32_to_bf16(float f) {
  const uint32_t u = std::bit_cast<uint32_t>(f);
  const uint32_t rounded = (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;
  const uint32_t nan = (u >> 16) | 0x40u;
  return static_cast<arena_bf16>((u & 0x7FFFFFFFu) > 0x7F800000u ? nan : rounded);
}

void rms_row(const arena_bf16* __restrict x, const arena_bf16* __restrict w, arena_bf16* __restrict y,
             int64_t cols, float eps) {
  float lane[kLanes] = {};
  int64_t c = 0;
  for (; c + kLanes <= cols; c += kLanes)
    for (int j = 0; j < kLanes; ++j) {
      const float v = bf16_to_f32(x[c + j]);
      lane[j] += v * v;
    }
  for (; c < cols; ++c) {
    const float v = bf16_to_f32(x[c]);
    lane[c & (kLanes - 1)] += v * v;
  }
  float ss = 0.0f;
  for (int j = 0; j < kLanes; ++j) ss += lane[j];
  const float inv = 1.0f / std::sqrt(ss / static_cast<float>(cols) + eps);
  for (int64_t k = 0; k < cols; ++k) y[k] = f32_to_bf16(bf16_to_f32(x[k]) * inv * bf16_to_f32(w[k]));
}

}  // namespace

extern "C" void rmsnorm_bf16(const arena_bf16* x, const arena_bf16* w, arena_bf16* y, int64_t rows,
                             int64_t cols, float eps) {
  if (rows < 2 || rows * cols < (int64_t{1} << 15)) {
    for (int64_t r = 0; r < rows; ++r) rms_row(x + r * cols, w, y + r * cols, cols, eps);
    return;
  }
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r) rms_row(x + r * cols, w, y + r * cols, cols, eps);
}
