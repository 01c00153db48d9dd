#include "arena_signature.h"

// gemm_fp8_e4m3 host reference (fp64 on the CPU, for `arena tasks check`): every product and
// the whole dot product in double, multiplied in double by scale_a and scale_b, the result
// narrowed to fp32 and rounded once to bf16. Validates reference.cu on the visible shapes small
// enough for the host. The generated header has no fp8 conversion for the CPU, so the 256 codes
// are decoded here into a table once per call.

#include <cmath>
#include <vector>

namespace {

// fp8-e4m3 (OCP "fn", CUDA's __nv_fp8_e4m3): sign, 4 exponent bits (bias 7), 3 mantissa bits,
// no infinities, 0x7F / 0xFF are NaN; exponent 0 is subnormal (mantissa · 2^-9).
double fp8_e4m3_to_double(uint8_t v) {
  const int exp = (v >> 3) & 0xF, mant = v & 0x7;
  double r;
  if (exp == 0xF && mant == 0x7) r = std::nan("");
  else if (exp == 0) r = std::ldexp(static_cast<double>(mant), -9);
  else r = std::ldexp(1.0 + mant / 8.0, exp - 7);
  return (v & 0x80) ? -r : r;
}

}  // namespace

extern "C" void gemm_fp8_e4m3(const arena_fp8_e4m3* A, const arena_fp8_e4m3* B, const float* scale_a,
                              const float* scale_b, arena_bf16* out, int64_t M, int64_t N, int64_t K) {
  double table[256];
  for (int c = 0; c < 256; ++c) table[c] = fp8_e4m3_to_double(static_cast<uint8_t>(c));
  const double scale = static_cast<double>(*scale_a) * static_cast<double>(*scale_b);
#pragma omp parallel
  {
    std::vector<double> a(static_cast<size_t>(K));
#pragma omp for schedule(dynamic, 4)
    for (int64_t i = 0; i < M; ++i) {
      for (int64_t k = 0; k < K; ++k) a[k] = table[A[i * K + k]];
      for (int64_t j = 0; j < N; ++j) {
        const arena_fp8_e4m3* b = B + j * K;
        double acc = 0.0;
        for (int64_t k = 0; k < K; ++k) acc += a[k] * table[b[k]];
        out[i * N + j] = arena_float_to_bf16(static_cast<float>(acc * scale));
      }
    }
  }
}
