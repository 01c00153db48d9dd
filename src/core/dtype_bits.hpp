// The element conversions of core/dtype.hpp, written once for the host and the device (the
// judge's device helper checks outputs with the same loads: judge/device_plane.hpp). Round to
// nearest even; NaN stays NaN; overflow saturates as the formats do (fp16/bf16 to infinity,
// fp8-e4m3 to NaN since it has no infinity).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/dtype.hpp"
#include "core/host_device.hpp"

namespace arena::dtype_bits {

ARENA_HD inline size_t size(DType t) {
  switch (t) {
    case DType::kFp32:
    case DType::kInt32:
      return 4;
    case DType::kFp16:
    case DType::kBf16:
      return 2;
    case DType::kFp8E4m3:
    case DType::kInt8:
    case DType::kUint8:
      return 1;
  }
  return 4;
}

ARENA_HD inline uint32_t bits_of(float f) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  uint32_t u = 0;
  std::memcpy(&u, &f, 4);
  return u;
#endif
}

ARENA_HD inline float float_of(uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float f = 0;
  std::memcpy(&f, &u, 4);
  return f;
#endif
}

ARENA_HD inline uint16_t float_to_bf16(float f) {
  uint32_t u = bits_of(f);
  if (std::isnan(f)) return static_cast<uint16_t>((u >> 16) | 0x0040);  // keep it quiet NaN
  uint32_t rounding = 0x7FFF + ((u >> 16) & 1);
  return static_cast<uint16_t>((u + rounding) >> 16);
}

ARENA_HD inline float bf16_to_float(uint16_t b) {
  return float_of(static_cast<uint32_t>(b) << 16);
}

ARENA_HD inline uint16_t float_to_fp16(float f) {
  uint32_t u = bits_of(f);
  uint32_t sign = (u >> 16) & 0x8000;
  uint32_t abs = u & 0x7FFFFFFF;
  if (abs > 0x7F800000) return static_cast<uint16_t>(sign | 0x7E00);   // NaN
  if (abs >= 0x477FF000) return static_cast<uint16_t>(sign | 0x7C00);  // overflow to inf
  if (abs < 0x38800000) {                        // subnormal or zero in fp16: the unit is 2^-24
    float scaled = float_of(abs) * 16777216.0f;  // 2^24, exact
    auto m = static_cast<uint32_t>(std::nearbyint(scaled));  // ties to even (default mode)
    return static_cast<uint16_t>(sign | m);
  }
  uint32_t exp = ((abs >> 23) - 127 + 15);
  uint32_t mant = abs & 0x7FFFFF;
  uint32_t half = (exp << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1FFF;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) ++half;  // may carry into the exponent
  return static_cast<uint16_t>(sign | half);
}

ARENA_HD inline float fp16_to_float(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1F;
  uint32_t mant = h & 0x3FF;
  if (exp == 0) {
    float v = static_cast<float>(mant) / 16777216.0f;  // mant * 2^-24
    return sign ? -v : v;
  }
  if (exp == 31) return float_of(sign | 0x7F800000 | (mant << 13));
  return float_of(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

// fp8 e4m3 (OCP "fn" variant, as CUDA's __nv_fp8_e4m3): bias 7, no infinities, max 448,
// 0x7F/0xFF are NaN. Overflow saturates to NaN as __nv_cvt_float_to_fp8 does with __NV_NOSAT.
ARENA_HD inline uint8_t float_to_fp8_e4m3(float f) {
  if (std::isnan(f)) return 0x7F;
  uint8_t sign = std::signbit(f) ? 0x80 : 0;
  float a = std::fabs(f);
  if (a == 0) return sign;
  // Largest finite is 448; values that round above it become NaN.
  if (a >= 464.0f) return static_cast<uint8_t>(sign | 0x7F);
  int e = 0;
  std::frexp(a, &e);       // a = m * 2^e, m in [0.5, 1)
  int exp = e - 1;         // a = 1.x * 2^exp
  if (exp < -6) exp = -6;  // subnormal range: unit 2^-9
  float unit = std::ldexp(1.0f, exp - 3);
  float q = std::nearbyint(a / unit);  // ties to even
  float v = q * unit;
  // Re-encode v, which is exactly representable (possibly one binade up after rounding).
  if (v >= 464.0f) return static_cast<uint8_t>(sign | 0x7F);
  std::frexp(v, &e);
  exp = e - 1;
  if (v < std::ldexp(1.0f, -6)) {  // subnormal
    auto m = static_cast<uint8_t>(std::nearbyint(v / std::ldexp(1.0f, -9)));
    return static_cast<uint8_t>(sign | m);
  }
  auto mant = static_cast<uint8_t>(std::nearbyint((v / std::ldexp(1.0f, exp) - 1.0f) * 8.0f));
  return static_cast<uint8_t>(sign | ((exp + 7) << 3) | mant);
}

ARENA_HD inline float fp8_e4m3_to_float(uint8_t v) {
  bool neg = (v & 0x80) != 0;
  int exp = (v >> 3) & 0xF;
  int mant = v & 0x7;
  float r = 0;
  if (exp == 0xF && mant == 0x7) {
    r = float_of(0x7FC00000u);  // quiet NaN
  } else if (exp == 0) {
    r = std::ldexp(static_cast<float>(mant), -9);
  } else {
    r = std::ldexp(1.0f + static_cast<float>(mant) / 8.0f, exp - 7);
  }
  return neg ? -r : r;
}

ARENA_HD inline double load(DType t, const void* data, size_t i) {
  switch (t) {
    case DType::kFp32:
      return static_cast<const float*>(data)[i];
    case DType::kFp16:
      return fp16_to_float(static_cast<const uint16_t*>(data)[i]);
    case DType::kBf16:
      return bf16_to_float(static_cast<const uint16_t*>(data)[i]);
    case DType::kFp8E4m3:
      return fp8_e4m3_to_float(static_cast<const uint8_t*>(data)[i]);
    case DType::kInt32:
      return static_cast<const int32_t*>(data)[i];
    case DType::kInt8:
      return static_cast<const int8_t*>(data)[i];
    case DType::kUint8:
      return static_cast<const uint8_t*>(data)[i];
  }
  return 0;
}

// std::llround(v) limited to [lo, hi].
ARENA_HD inline long long round_into(double v, long long lo, long long hi) {
  long long r = std::llround(v);
  return r < lo ? lo : (r > hi ? hi : r);
}

ARENA_HD inline void store(DType t, void* data, size_t i, double v) {
  auto f = static_cast<float>(v);
  switch (t) {
    case DType::kFp32:
      static_cast<float*>(data)[i] = f;
      break;
    case DType::kFp16:
      static_cast<uint16_t*>(data)[i] = float_to_fp16(f);
      break;
    case DType::kBf16:
      static_cast<uint16_t*>(data)[i] = float_to_bf16(f);
      break;
    case DType::kFp8E4m3:
      static_cast<uint8_t*>(data)[i] = float_to_fp8_e4m3(f);
      break;
    case DType::kInt32:
      static_cast<int32_t*>(data)[i] =
          static_cast<int32_t>(round_into(v, -2147483648LL, 2147483647LL));
      break;
    case DType::kInt8:
      static_cast<int8_t*>(data)[i] = static_cast<int8_t>(round_into(v, -128LL, 127LL));
      break;
    case DType::kUint8:
      static_cast<uint8_t*>(data)[i] = static_cast<uint8_t>(round_into(v, 0LL, 255LL));
      break;
  }
}

}  // namespace arena::dtype_bits
