// The event window's fixed part: a measured per-device constant taken off each plain timed call.
#include "judge/window_overhead.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include "core/error.hpp"
#include "scoped_env.hpp"

namespace arena {
namespace {

// ARENA_WINDOW_OVERHEAD_NS for one scope.
class OverheadEnv : public testing::ScopedEnv {
 public:
  explicit OverheadEnv(const char* value) : ScopedEnv("ARENA_WINDOW_OVERHEAD_NS", value) {}
};

TEST(WindowOverhead, MeasuredForTheH200) {
  ASSERT_TRUE(window_overhead_ns("NVIDIA H200"));
  // An empty kernel's whole window on it was 2.85 us, ncu's 1.44 us: the fixed part lies between.
  EXPECT_GT(*window_overhead_ns("NVIDIA H200"), 500);
  EXPECT_LT(*window_overhead_ns("NVIDIA H200"), 2850);
}

TEST(WindowOverhead, NoRowMeansNoCorrection) {
  EXPECT_FALSE(window_overhead_ns("AMD EPYC 7763 64-Core Processor"));
  EXPECT_FALSE(window_overhead_ns(""));
  OverheadEnv unset(nullptr);
  EXPECT_FALSE(window_overhead_to_apply("AMD EPYC 7763 64-Core Processor"));
  EXPECT_EQ(window_overhead_to_apply("NVIDIA H200"), window_overhead_ns("NVIDIA H200"));
}

TEST(WindowOverhead, TakesTheFixedPartOffAndNeverReachesZero) {
  EXPECT_DOUBLE_EQ(kernel_time_ns(6600, 1100), 5500);
  EXPECT_DOUBLE_EQ(kernel_time_ns(6600, 0), 6600);  // no correction
  // A window shorter than the fixed part had nothing on the stream: the least positive time,
  // so that the roofline still judges it.
  EXPECT_DOUBLE_EQ(kernel_time_ns(900, 1100), 1);
  EXPECT_DOUBLE_EQ(kernel_time_ns(1100, 1100), 1);
}

TEST(WindowOverhead, TheEnvironmentOverridesTheTable) {
  {
    OverheadEnv e("750");
    EXPECT_EQ(window_overhead_to_apply("AMD EPYC 7763 64-Core Processor"), 750);
    EXPECT_EQ(window_overhead_to_apply("NVIDIA H200"), 750);
  }
  {
    OverheadEnv e("0");  // off, whatever the table says
    EXPECT_FALSE(window_overhead_to_apply("NVIDIA H200"));
  }
}

TEST(WindowOverhead, MeasuredForTheH100) {
  ASSERT_TRUE(window_overhead_ns("NVIDIA H100 80GB HBM3"));
  // An empty kernel's whole window on it was 3.10 us, ncu's 2.10 us: the fixed part lies between.
  EXPECT_GT(*window_overhead_ns("NVIDIA H100 80GB HBM3"), 300);
  EXPECT_LT(*window_overhead_ns("NVIDIA H100 80GB HBM3"), 3104);
  // Measured on the SXM part only: the PCIe and NVL H100s keep whole windows.
  EXPECT_FALSE(window_overhead_ns("NVIDIA H100 PCIe"));
  EXPECT_FALSE(window_overhead_ns("NVIDIA H100 NVL"));
  EXPECT_FALSE(window_overhead_ns("NVIDIA H200 NVL"));  // nor does the H200's variant take its row
}

TEST(WindowOverhead, AMalformedOverrideNamesTheVariable) {
  for (const char* bad : {"", "abc", "12us", "-5", "nan", "1e9"}) {
    OverheadEnv e(bad);
    try {
      window_overhead_to_apply("NVIDIA H200");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InputError& err) {
      EXPECT_NE(std::string(err.what()).find("ARENA_WINDOW_OVERHEAD_NS"), std::string::npos)
          << err.what();
    }
  }
}

}  // namespace
}  // namespace arena
