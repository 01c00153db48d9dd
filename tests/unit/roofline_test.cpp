#include "judge/roofline.hpp"

#include <gtest/gtest.h>

namespace arena {
namespace {

DevicePeaks h200() { return *find_device_peaks("NVIDIA H200"); }

TEST(Roofline, FindsTheDeviceByName) {
  EXPECT_EQ(find_device_peaks("NVIDIA H200")->name, "H200");
  EXPECT_EQ(find_device_peaks("NVIDIA H100 80GB HBM3")->name, "H100");
  EXPECT_EQ(find_device_peaks("NVIDIA H100 NVL")->name, "H100 NVL");
  // A variant's own row, never its family's: the PCIe part has 60 % of the SXM's bandwidth.
  EXPECT_EQ(find_device_peaks("NVIDIA H100 PCIe")->name, "H100 PCIe");
  EXPECT_EQ(find_device_peaks("NVIDIA H100 PCIe")->memory_gbytes_per_s, 2000);
  EXPECT_EQ(find_device_peaks("NVIDIA H200 NVL")->name, "H200 NVL");
  EXPECT_FALSE(find_device_peaks("AMD EPYC").has_value());
}

TEST(Roofline, MemoryBoundFloorIsBytesOverBandwidth) {
  // vector_add, 2^26 floats: 805 MB at 4.8 TB/s = 168 us.
  double bytes = 12.0 * (1 << 26);
  Roofline r = compute_roofline(1 << 26, bytes, DType::kFp32, h200(), 200e3, true);
  EXPECT_NEAR(r.floor_ns, bytes / 4800, 1);
  EXPECT_NEAR(r.fraction, r.floor_ns / 200e3, 1e-9);
  EXPECT_FALSE(r.impossible);
}

TEST(Roofline, ComputeBoundFloorUsesTheTasksPrecision) {
  // 4096^3 bf16 GEMM: 137 GFLOP at 989 TFLOP/s = 139 us.
  double flops = 2.0 * 4096 * 4096 * 4096;
  Roofline r = compute_roofline(flops, 3.0 * 2 * 4096 * 4096, DType::kBf16, h200(), 180e3, true);
  EXPECT_NEAR(r.floor_ns, flops / 989e3, 1);
  EXPECT_NEAR(r.fraction, 0.77, 0.01);
}

TEST(Roofline, FasterThanAnyPrecisionAllowsIsImpossible) {
  double flops = 2.0 * 4096 * 4096 * 4096;  // fp32 GEMM; even fp8 needs 69 us
  EXPECT_FALSE(compute_roofline(flops, 0, DType::kFp32, h200(), 100e3, true).impossible);  // TF32/bf16 speed: possible
  EXPECT_TRUE(compute_roofline(flops, 0, DType::kFp32, h200(), 30e3, true).impossible);
  // Cold: 805 MB cannot move in 50 us.
  EXPECT_TRUE(compute_roofline(0, 12.0 * (1 << 26), DType::kFp32, h200(), 50e3, true).impossible);
}

TEST(Roofline, WarmCachesDropTheMemoryFloor) {
  EXPECT_FALSE(compute_roofline(0, 12.0 * (1 << 20), DType::kFp32, h200(), 1e3, false).impossible);
  EXPECT_EQ(compute_roofline(0, 12.0 * (1 << 20), DType::kFp32, h200(), 1e3, false).floor_ns, 0);
}

}  // namespace
}  // namespace arena
