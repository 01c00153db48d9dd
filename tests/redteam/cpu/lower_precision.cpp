// Cheats on purpose (lower precision): an fp32 GEMM computed on bf16 operands (A and B rounded to
// 8 mantissa bits, as bf16 tensor cores would take them), accumulated in fp32. Each product is off
// by ~2^-8 relative, far beyond the task's fp32 tolerance (1e-5 * sqrt(K)). Expected: failure
// wrong_values.
#include <cstdint>
#include <cstring>
#include <vector>

#include "arena_signature.h"

namespace {
float to_bf16(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  bits = (bits + 0x7FFFu + ((bits >> 16) & 1u)) & 0xFFFF0000u;  // round to nearest even
  std::memcpy(&v, &bits, sizeof v);
  return v;
}
}  // namespace

extern "C" void sgemm_f32(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K) {
  std::vector<float> a(static_cast<size_t>(M * K)), b(static_cast<size_t>(K * N));
  for (int64_t i = 0; i < M * K; ++i) a[i] = to_bf16(A[i]);
  for (int64_t i = 0; i < K * N; ++i) b[i] = to_bf16(B[i]);
  for (int64_t i = 0; i < M; ++i) {
    float* c = C + i * N;
    for (int64_t j = 0; j < N; ++j) c[j] = 0.0f;
    for (int64_t k = 0; k < K; ++k) {
      const float aik = a[i * K + k];
      const float* bk = b.data() + k * N;
      for (int64_t j = 0; j < N; ++j) c[j] += aik * bk[j];
    }
  }
}
