#include "core/dtype.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace arena {
namespace {

TEST(DType, ParsesEverySpellingAndRejectsOthers) {
  DType t{};
  for (const char* name : {"fp32", "fp16", "bf16", "fp8-e4m3", "int32", "int8"}) {
    ASSERT_TRUE(parse_dtype(name, &t)) << name;
    EXPECT_EQ(dtype_name(t), name);
  }
  EXPECT_FALSE(parse_dtype("fp33", &t));
  EXPECT_FALSE(parse_dtype("float", &t));
}

TEST(DType, KnowsSizes) {
  EXPECT_EQ(dtype_size(DType::kFp32), 4u);
  EXPECT_EQ(dtype_size(DType::kBf16), 2u);
  EXPECT_EQ(dtype_size(DType::kFp8E4m3), 1u);
  EXPECT_EQ(dtype_size(DType::kInt8), 1u);
}

TEST(DType, Bf16RoundsToNearestEven) {
  EXPECT_EQ(float_to_bf16(1.0f), 0x3F80);
  EXPECT_EQ(bf16_to_float(0x3F80), 1.0f);
  // 1 + 2^-8 is exactly halfway between 1 and 1 + 2^-7: ties to the even mantissa (1.0).
  EXPECT_EQ(float_to_bf16(1.0f + std::ldexp(1.0f, -8)), 0x3F80);
  EXPECT_EQ(float_to_bf16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3F82);
  EXPECT_TRUE(std::isnan(bf16_to_float(float_to_bf16(std::nanf("")))));
}

TEST(DType, Fp16RoundTripsAndSaturates) {
  for (float f : {0.0f, 1.0f, -2.5f, 65504.0f, 6.1035156e-05f, 5.9604645e-08f}) {
    EXPECT_EQ(fp16_to_float(float_to_fp16(f)), f) << f;
  }
  EXPECT_EQ(float_to_fp16(1.0f), 0x3C00);
  EXPECT_TRUE(std::isinf(fp16_to_float(float_to_fp16(1e6f))));
  EXPECT_EQ(fp16_to_float(float_to_fp16(1.0f + std::ldexp(1.0f, -11))), 1.0f);  // tie to even
}

TEST(DType, Fp8E4m3CoversItsRange) {
  EXPECT_EQ(fp8_e4m3_to_float(float_to_fp8_e4m3(448.0f)), 448.0f);
  EXPECT_EQ(fp8_e4m3_to_float(float_to_fp8_e4m3(-1.5f)), -1.5f);
  EXPECT_EQ(fp8_e4m3_to_float(float_to_fp8_e4m3(std::ldexp(1.0f, -9))), std::ldexp(1.0f, -9));  // smallest subnormal
  EXPECT_EQ(fp8_e4m3_to_float(float_to_fp8_e4m3(1.0625f)), 1.0f);  // tie to even
  EXPECT_TRUE(std::isnan(fp8_e4m3_to_float(float_to_fp8_e4m3(1000.0f))));
  // Every finite code decodes and re-encodes to itself.
  for (int v = 0; v < 256; ++v) {
    float f = fp8_e4m3_to_float(static_cast<uint8_t>(v));
    if (std::isnan(f) || (v == 0x80)) continue;
    EXPECT_EQ(float_to_fp8_e4m3(f), v) << v;
  }
}

TEST(DType, LoadsAndStoresEveryType) {
  unsigned char buf[16] = {};
  for (DType t : {DType::kFp32, DType::kFp16, DType::kBf16, DType::kFp8E4m3, DType::kInt32, DType::kInt8, DType::kUint8}) {
    const double v = t == DType::kUint8 ? 200.0 : -3.0;  // uint8 holds 0..255
    store_element(t, buf, 1, v);
    EXPECT_EQ(load_element(t, buf, 1), v) << dtype_name(t);
  }
}

TEST(DType, IntegersSaturateInsteadOfWrapping) {
  unsigned char buf[16] = {};
  store_element(DType::kUint8, buf, 0, 300.0);
  EXPECT_EQ(load_element(DType::kUint8, buf, 0), 255.0);
  store_element(DType::kUint8, buf, 0, -3.0);
  EXPECT_EQ(load_element(DType::kUint8, buf, 0), 0.0);
  store_element(DType::kInt8, buf, 0, 200.0);
  EXPECT_EQ(load_element(DType::kInt8, buf, 0), 127.0);
  store_element(DType::kInt32, buf, 0, -1e12);
  EXPECT_EQ(load_element(DType::kInt32, buf, 0), -2147483648.0);
}

}  // namespace
}  // namespace arena
