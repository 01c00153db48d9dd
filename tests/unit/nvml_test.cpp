// NVML through dlopen: a missing library, an unknown device and a failing query leave telemetry
// absent with a reason; a working one (tests/unit/fake_nvml.cpp) gives the readings in judge units.

#include <dlfcn.h>
#include <gtest/gtest.h>

#include "backends/cuda/nvml.hpp"

namespace arena {
namespace {

TEST(Nvml, MissingLibraryIsNoTelemetryWithAReason) {
  NvmlDevice d("0000:3b:00.0", "libnvidia-ml-that-does-not-exist.so.1");
  EXPECT_NE(d.error().find("NVML is not installed"), std::string::npos) << d.error();
  std::string why;
  EXPECT_FALSE(d.read(&why));
  EXPECT_EQ(why, d.error());
}

TEST(Nvml, UnknownBusIdIsNoTelemetry) {
  NvmlDevice d("0000:99:00.0", FAKE_NVML_LIBRARY);
  EXPECT_NE(d.error().find("0000:99:00.0"), std::string::npos) << d.error();
  EXPECT_FALSE(d.read());
  NvmlDevice none("", FAKE_NVML_LIBRARY);
  EXPECT_FALSE(none.error().empty());
}

TEST(Nvml, ReadsTheDeviceByBusIdInJudgeUnits) {
  NvmlDevice d("0000:3b:00.0", FAKE_NVML_LIBRARY);
  ASSERT_EQ(d.error(), "");
  std::string why;
  auto t = d.read(&why);
  ASSERT_TRUE(t) << why;
  EXPECT_EQ(t->sm_clock_mhz, 1980);
  EXPECT_EQ(t->mem_clock_mhz, 2619);
  EXPECT_EQ(t->temperature_c, 71);
  EXPECT_DOUBLE_EQ(t->power_w, 612.345);  // NVML reports milliwatts
  EXPECT_EQ(t->throttle_reasons, throttle::kSwPowerCap | throttle::kGpuIdle);
  EXPECT_TRUE(is_slowdown(t->throttle_reasons));
}

TEST(Nvml, AFailedQueryIsNoTelemetryNamingTheCall) {
  NvmlDevice d("0000:3b:00.0", FAKE_NVML_LIBRARY);
  ASSERT_EQ(d.error(), "");
  void* lib = dlopen(FAKE_NVML_LIBRARY, RTLD_NOW);  // the same instance NvmlDevice loaded
  ASSERT_NE(lib, nullptr);
  auto set_power_error = reinterpret_cast<void (*)(int)>(dlsym(lib, "fake_nvml_set_power_error"));
  ASSERT_NE(set_power_error, nullptr);
  set_power_error(13);
  std::string why;
  EXPECT_FALSE(d.read(&why));
  EXPECT_NE(why.find("nvmlDeviceGetPowerUsage"), std::string::npos) << why;
  EXPECT_NE(why.find("Not Supported"), std::string::npos) << why;
  set_power_error(0);
  EXPECT_TRUE(d.read());
  dlclose(lib);
}

}  // namespace
}  // namespace arena
