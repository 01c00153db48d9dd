#include "arena_signature.h"

// per_token_fp8_quant_bf16 host reference (fp64 on the CPU, for `arena tasks check`): amax exact,
// scale = max(amax, 1e-10) / 448 in double rounded once to fp32, q = x / scale in double rounded
// once to the nearest fp8-e4m3 value (ties to the even code), saturating to +-448. The generated
// header has no fp8 conversion for the CPU, so the 127 non-negative finite codes are decoded into
// a table and the nearest is found by binary search: plain, and independent of CUDA's converter that
// reference.cu uses.

#include <algorithm>
#include <cmath>

namespace {

// fp8-e4m3 (OCP "fn", CUDA's __nv_fp8_e4m3): sign, 4 exponent bits (bias 7), 3 mantissa bits,
// no infinities, 0x7F / 0xFF are NaN; exponent 0 is subnormal (mantissa · 2^-9). Codes 0..0x7E
// are the non-negative finite values in increasing order, 0x7E = 448.
double fp8_e4m3_value(int code) {
  const int exp = (code >> 3) & 0xF, mant = code & 0x7;
  return exp == 0 ? std::ldexp(static_cast<double>(mant), -9) : std::ldexp(1.0 + mant / 8.0, exp - 7);
}

struct Fp8Table {
  double v[127];
  Fp8Table() {
    for (int c = 0; c < 127; ++c) v[c] = fp8_e4m3_value(c);
  }
};

// Nearest code to v (finite), ties to the even code (the even mantissa), |v| >= 448 -> 448.
uint8_t to_fp8_e4m3(double v, const Fp8Table& t) {
  const uint8_t sign = std::signbit(v) ? 0x80 : 0;
  const double a = std::fabs(v);
  const int lo = static_cast<int>(std::upper_bound(t.v, t.v + 127, a) - t.v) - 1;  // largest code with value <= a
  int code = lo;
  if (lo < 126) {
    const double below = a - t.v[lo], above = t.v[lo + 1] - a;
    if (above < below || (above == below && (lo & 1))) code = lo + 1;
  }
  return static_cast<uint8_t>(sign | code);
}

}  // namespace

extern "C" void per_token_fp8_quant_bf16(const arena_bf16* x, arena_fp8_e4m3* q, float* scales, int64_t tokens,
                                         int64_t hidden) {
  const Fp8Table table;
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < tokens; ++r) {
    const arena_bf16* xr = x + r * hidden;
    double amax = 0.0;
    for (int64_t c = 0; c < hidden; ++c) amax = std::fmax(amax, std::fabs(static_cast<double>(arena_bf16_to_float(xr[c]))));
    const float scale = static_cast<float>(std::fmax(amax, static_cast<double>(1e-10f)) / 448.0);
    scales[r] = scale;
    for (int64_t c = 0; c < hidden; ++c)
      q[r * hidden + c] = to_fp8_e4m3(static_cast<double>(arena_bf16_to_float(xr[c])) / static_cast<double>(scale), table);
  }
}
