#include "core/dtype.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace arena {
namespace {

struct DTypeInfo {
  DType type;
  std::string_view name;
  size_t size;
  bool is_float;
  std::string_view cpu_type;
  std::string_view cuda_type;
};

constexpr DTypeInfo kInfo[] = {
    {DType::kFp32, "fp32", 4, true, "float", "float"},
    {DType::kFp16, "fp16", 2, true, "arena_fp16", "__half"},
    {DType::kBf16, "bf16", 2, true, "arena_bf16", "__nv_bfloat16"},
    {DType::kFp8E4m3, "fp8-e4m3", 1, true, "arena_fp8_e4m3", "__nv_fp8_e4m3"},
    {DType::kInt32, "int32", 4, false, "int32_t", "int32_t"},
    {DType::kInt8, "int8", 1, false, "int8_t", "int8_t"},
    {DType::kUint8, "uint8", 1, false, "uint8_t", "uint8_t"},
};

const DTypeInfo& info(DType t) {
  for (const auto& i : kInfo)
    if (i.type == t) return i;
  return kInfo[0];
}

uint32_t bits_of(float f) {
  uint32_t u = 0;
  std::memcpy(&u, &f, 4);
  return u;
}

float float_of(uint32_t u) {
  float f = 0;
  std::memcpy(&f, &u, 4);
  return f;
}

}  // namespace

bool parse_dtype(std::string_view name, DType* out) {
  for (const auto& i : kInfo) {
    if (i.name == name) {
      *out = i.type;
      return true;
    }
  }
  return false;
}

std::string_view dtype_name(DType t) { return info(t).name; }
size_t dtype_size(DType t) { return info(t).size; }
bool dtype_is_float(DType t) { return info(t).is_float; }
std::string_view dtype_cpu_type(DType t) { return info(t).cpu_type; }
std::string_view dtype_cuda_type(DType t) { return info(t).cuda_type; }

std::string dtype_choices() {
  std::string s;
  for (const auto& i : kInfo) s += (s.empty() ? "" : ", ") + std::string(i.name);
  return s;
}

uint16_t float_to_bf16(float f) {
  uint32_t u = bits_of(f);
  if (std::isnan(f)) return static_cast<uint16_t>((u >> 16) | 0x0040);  // keep it quiet NaN
  uint32_t rounding = 0x7FFF + ((u >> 16) & 1);
  return static_cast<uint16_t>((u + rounding) >> 16);
}

float bf16_to_float(uint16_t b) { return float_of(static_cast<uint32_t>(b) << 16); }

uint16_t float_to_fp16(float f) {
  uint32_t u = bits_of(f);
  uint32_t sign = (u >> 16) & 0x8000;
  uint32_t abs = u & 0x7FFFFFFF;
  if (abs > 0x7F800000) return static_cast<uint16_t>(sign | 0x7E00);  // NaN
  if (abs >= 0x477FF000) return static_cast<uint16_t>(sign | 0x7C00);  // overflow to inf
  if (abs < 0x38800000) {  // subnormal or zero in fp16
    // Value = abs_float; fp16 subnormal unit is 2^-24.
    float a = float_of(abs);
    float scaled = a * 16777216.0f;  // 2^24, exact
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

float fp16_to_float(uint16_t h) {
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
uint8_t float_to_fp8_e4m3(float f) {
  if (std::isnan(f)) return 0x7F;
  uint8_t sign = std::signbit(f) ? 0x80 : 0;
  float a = std::fabs(f);
  if (a == 0) return sign;
  // Largest finite is 448; values that round above it become NaN.
  if (a >= 464.0f) return static_cast<uint8_t>(sign | 0x7F);
  int e = 0;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  int exp = e - 1;    // a = 1.x * 2^exp
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

float fp8_e4m3_to_float(uint8_t v) {
  bool neg = (v & 0x80) != 0;
  int exp = (v >> 3) & 0xF;
  int mant = v & 0x7;
  float r = 0;
  if (exp == 0xF && mant == 0x7) {
    r = std::nanf("");
  } else if (exp == 0) {
    r = std::ldexp(static_cast<float>(mant), -9);
  } else {
    r = std::ldexp(1.0f + static_cast<float>(mant) / 8.0f, exp - 7);
  }
  return neg ? -r : r;
}

double load_element(DType t, const void* data, size_t i) {
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

void store_element(DType t, void* data, size_t i, double v) {
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
      static_cast<int32_t*>(data)[i] = static_cast<int32_t>(std::clamp(std::llround(v), -2147483648LL, 2147483647LL));
      break;
    case DType::kInt8:
      static_cast<int8_t*>(data)[i] = static_cast<int8_t>(std::clamp(std::llround(v), -128LL, 127LL));
      break;
    case DType::kUint8:
      static_cast<uint8_t*>(data)[i] = static_cast<uint8_t>(std::clamp(std::llround(v), 0LL, 255LL));
      break;
  }
}

}  // namespace arena
