#include "core/dtype.hpp"

#include "core/dtype_bits.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace arena {
namespace {

struct DTypeInfo {  // NOLINT(clang-analyzer-optin.performance.Padding): a small static table, in reading order
  DType type;
  std::string_view name;
  bool is_float;
  std::string_view cpu_type;
  std::string_view cuda_type;
};

constexpr DTypeInfo kInfo[] = {
    {DType::kFp32, "fp32", true, "float", "float"},
    {DType::kFp16, "fp16", true, "arena_fp16", "__half"},
    {DType::kBf16, "bf16", true, "arena_bf16", "__nv_bfloat16"},
    {DType::kFp8E4m3, "fp8-e4m3", true, "arena_fp8_e4m3", "__nv_fp8_e4m3"},
    {DType::kInt32, "int32", false, "int32_t", "int32_t"},
    {DType::kInt8, "int8", false, "int8_t", "int8_t"},
    {DType::kUint8, "uint8", false, "uint8_t", "uint8_t"},
};

const DTypeInfo& info(DType t) {
  for (const auto& i : kInfo)
    if (i.type == t) return i;
  return kInfo[0];
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
size_t dtype_size(DType t) { return dtype_bits::size(t); }
bool dtype_is_float(DType t) { return info(t).is_float; }
std::string_view dtype_cpu_type(DType t) { return info(t).cpu_type; }
std::string_view dtype_cuda_type(DType t) { return info(t).cuda_type; }

std::string dtype_choices() {
  std::string s;
  for (const auto& i : kInfo) s += (s.empty() ? "" : ", ") + std::string(i.name);
  return s;
}

uint16_t float_to_bf16(float f) { return dtype_bits::float_to_bf16(f); }
float bf16_to_float(uint16_t b) { return dtype_bits::bf16_to_float(b); }
uint16_t float_to_fp16(float f) { return dtype_bits::float_to_fp16(f); }
float fp16_to_float(uint16_t h) { return dtype_bits::fp16_to_float(h); }
uint8_t float_to_fp8_e4m3(float f) { return dtype_bits::float_to_fp8_e4m3(f); }
float fp8_e4m3_to_float(uint8_t v) { return dtype_bits::fp8_e4m3_to_float(v); }
double load_element(DType t, const void* data, size_t i) { return dtype_bits::load(t, data, i); }
void store_element(DType t, void* data, size_t i, double v) { dtype_bits::store(t, data, i, v); }

}  // namespace arena
