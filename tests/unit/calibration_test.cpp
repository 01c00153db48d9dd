// Calibration: measured rates against the peak table's row.

#include <gtest/gtest.h>

#include "judge/calibration.hpp"

namespace arena {
namespace {

TEST(Calibration, EachMeasuredRateAgainstItsPeakInAFixedOrder) {
  auto peaks = find_device_peaks("NVIDIA H200");
  ASSERT_TRUE(peaks);
  auto rows = compare_calibration(
      {{"name", "NVIDIA H200"}, {"fp32_tflops", "50.25"}, {"memory_gbytes_per_s", "4320"}, {"bf16_tflops", "742"}}, peaks);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].key, "memory_gbytes_per_s");
  EXPECT_EQ(rows[0].unit, "GB/s");
  EXPECT_DOUBLE_EQ(*rows[0].peak, 4800);
  EXPECT_DOUBLE_EQ(*rows[0].fraction, 0.9);
  EXPECT_EQ(rows[1].key, "bf16_tflops");
  EXPECT_DOUBLE_EQ(*rows[1].fraction, 742.0 / 989);
  EXPECT_EQ(rows[2].key, "fp32_tflops");
  EXPECT_DOUBLE_EQ(rows[2].measured, 50.25);
  EXPECT_DOUBLE_EQ(*rows[2].peak, 67);
}

TEST(Calibration, WithoutAPeakRowOnlyTheMeasurement) {
  auto rows = compare_calibration({{"tf32_tflops", "100"}}, std::nullopt);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].measured, 100);
  EXPECT_FALSE(rows[0].peak);
  EXPECT_FALSE(rows[0].fraction);
}

TEST(Calibration, AnErrorOrAGarbledValueGivesNoRow) {
  EXPECT_TRUE(compare_calibration({{"error", "no CUDA device is visible"}}, find_device_peaks("H100")).empty());
  EXPECT_TRUE(compare_calibration({{"bf16_tflops", "fast"}, {"fp32_tflops", "12x"}}, std::nullopt).empty());
}

}  // namespace
}  // namespace arena
