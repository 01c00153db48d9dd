// Throttle reasons: their names, which count as a real slowdown, and the telemetry summary.

#include <gtest/gtest.h>

#include "judge/device_telemetry.hpp"

namespace arena {
namespace {

using Names = std::vector<std::string>;

TEST(ThrottleReasons, NamesEveryDocumentedBitInBitOrder) {
  EXPECT_EQ(throttle_reason_names(0), Names{});
  EXPECT_EQ(throttle_reason_names(0x1ff),
            (Names{"gpu_idle", "applications_clocks_setting", "sw_power_cap", "hw_slowdown", "sync_boost",
                   "sw_thermal_slowdown", "hw_thermal_slowdown", "hw_power_brake_slowdown", "display_clock_setting"}));
  EXPECT_EQ(throttle_reason_names(throttle::kHwThermalSlowdown | throttle::kGpuIdle), (Names{"gpu_idle", "hw_thermal_slowdown"}));
}

TEST(ThrottleReasons, UnknownBitsAreNamedByValue) {
  EXPECT_EQ(throttle_reason_names(0x400 | throttle::kSwPowerCap), (Names{"sw_power_cap", "0x400"}));
  EXPECT_EQ(throttle_reason_names(uint64_t{1} << 63), Names{"0x8000000000000000"});
}

TEST(ThrottleReasons, OnlyPowerThermalAndHardwareSlowdownsCount) {
  for (uint64_t bit : {throttle::kSwPowerCap, throttle::kHwSlowdown, throttle::kSwThermalSlowdown,
                       throttle::kHwThermalSlowdown, throttle::kHwPowerBrakeSlowdown})
    EXPECT_TRUE(is_slowdown(bit)) << throttle_reason_names(bit)[0];
  for (uint64_t bit : {throttle::kGpuIdle, throttle::kApplicationsClocksSetting, throttle::kSyncBoost,
                       throttle::kDisplayClockSetting, uint64_t{0x400}})
    EXPECT_FALSE(is_slowdown(bit)) << throttle_reason_names(bit)[0];
  EXPECT_FALSE(is_slowdown(0));
  EXPECT_TRUE(is_slowdown(throttle::kGpuIdle | throttle::kHwSlowdown));
}

TEST(TelemetrySummary, MediansMaxTemperatureAndEveryReasonSeen) {
  EXPECT_FALSE(summarize_telemetry({}, throttle::kSwPowerCap, 3, 3));
  std::vector<DeviceTelemetry> r = {{1980, 2619, 60, 300, throttle::kGpuIdle},
                                    {1900, 2619, 75, 500, 0},
                                    {1700, 2600, 70, 400, 0}};
  auto s = summarize_telemetry(r, throttle::kSwThermalSlowdown, 4, 4);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->readings, 3);
  EXPECT_EQ(s->sm_clock_mhz, 1900);
  EXPECT_EQ(s->mem_clock_mhz, 2619);
  EXPECT_EQ(s->max_temperature_c, 75);
  EXPECT_EQ(s->power_w, 400);
  EXPECT_EQ(s->throttle_reasons, (Names{"gpu_idle", "sw_thermal_slowdown"}));
  EXPECT_EQ(s->slowdown_samples, 4);
  EXPECT_EQ(s->discarded_samples, 4);
}

TEST(TelemetrySummary, DescribesOneReadingForPeople) {
  std::string d = describe_telemetry({1980, 2619, 34, 121.5, throttle::kGpuIdle});
  EXPECT_NE(d.find("SM 1980 MHz"), std::string::npos) << d;
  EXPECT_NE(d.find("memory 2619 MHz"), std::string::npos) << d;
  EXPECT_NE(d.find("121.5 W"), std::string::npos) << d;
  EXPECT_NE(d.find("gpu_idle"), std::string::npos) << d;
  EXPECT_NE(describe_telemetry({}).find("held by: nothing"), std::string::npos);
}

}  // namespace
}  // namespace arena
