// Element types of task tensors, their storage, and exact conversions to and from float.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace arena {

enum class DType { kFp32, kFp16, kBf16, kFp8E4m3, kInt32, kInt8, kUint8 };

// Parses the task.yaml spelling ("fp32", "fp16", "bf16", "fp8-e4m3", "int32", "int8", "uint8").
// Returns false for an unknown name.
bool parse_dtype(std::string_view name, DType* out);
std::string_view dtype_name(DType t);
// All spellings, for error messages.
std::string dtype_choices();

size_t dtype_size(DType t);
bool dtype_is_float(DType t);
// The C type a solution sees for this dtype on the CPU backend (storage for the 16/8-bit floats).
std::string_view dtype_cpu_type(DType t);
// The C type a CUDA solution sees.
std::string_view dtype_cuda_type(DType t);

// Round-to-nearest-even conversions; NaN stays NaN, overflow saturates as the formats do
// (fp16/bf16 to infinity, fp8-e4m3 to NaN since it has no infinity).
uint16_t float_to_fp16(float f);
float fp16_to_float(uint16_t h);
uint16_t float_to_bf16(float f);
float bf16_to_float(uint16_t b);
uint8_t float_to_fp8_e4m3(float f);
float fp8_e4m3_to_float(uint8_t v);

// Reads element `i` of a buffer of type `t` as a double.
double load_element(DType t, const void* data, size_t i);
// Stores `v` (rounded to the dtype; integers saturate at their range) as element `i`.
void store_element(DType t, void* data, size_t i, double v);

}  // namespace arena
