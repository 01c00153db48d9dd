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
  EXPECT_FALSE(window_correction_to_apply("AMD EPYC 7763 64-Core Processor"));
  const auto c = window_correction_to_apply("NVIDIA H200");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->fixed_ns, window_overhead_ns("NVIDIA H200"));
  // The H200's row came with the empty window of the process that measured it (2.85 us).
  ASSERT_TRUE(c->reference_empty_ns);
  EXPECT_GT(*c->reference_empty_ns, c->fixed_ns);
  EXPECT_LT(*c->reference_empty_ns, 5000);
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
    // The same for every runner: no reference empty window to move it by.
    for (const char* device : {"AMD EPYC 7763 64-Core Processor", "NVIDIA H200"}) {
      const auto c = window_correction_to_apply(device);
      ASSERT_TRUE(c) << device;
      EXPECT_EQ(c->fixed_ns, 750) << device;
      EXPECT_FALSE(c->reference_empty_ns) << device;
    }
  }
  {
    OverheadEnv e("0");  // off, whatever the table says
    EXPECT_FALSE(window_correction_to_apply("NVIDIA H200"));
  }
}

TEST(WindowOverhead, MeasuredForTheH100) {
  OverheadEnv unset(nullptr);
  const auto c = window_correction_to_apply("NVIDIA H100 80GB HBM3");
  ASSERT_TRUE(c);
  // Its empty kernel's whole window was 3.10 us, ncu's 2.10 us: the fixed part lies between.
  EXPECT_GT(c->fixed_ns, 300);
  EXPECT_LT(c->fixed_ns, 3104);
  ASSERT_TRUE(c->reference_empty_ns);
}

// A runner's fixed part: the device's, moved by its own empty window's distance from the
// reference, never further than the limit either way (the empty kernels run in the solution's
// process), never below zero; the device's where its own was not measured.
TEST(WindowOverhead, EachRunnerMovesTheFixedPartByItsOwnEmptyWindowWithinALimit) {
  const WindowCorrection c{1000, 3000};
  EXPECT_DOUBLE_EQ(runner_window_overhead_ns(c, 3000), 1000);
  EXPECT_DOUBLE_EQ(runner_window_overhead_ns(c, 3066), 1066);
  EXPECT_DOUBLE_EQ(runner_window_overhead_ns(c, 2900), 900);
  EXPECT_DOUBLE_EQ(runner_window_overhead_ns(c, 9000), 1000 + kRunnerDeviationLimitNs);
  EXPECT_DOUBLE_EQ(runner_window_overhead_ns(c, 10), 1000 - kRunnerDeviationLimitNs);
  EXPECT_DOUBLE_EQ(runner_window_overhead_ns(c, std::nullopt), 1000);
  EXPECT_DOUBLE_EQ(runner_window_overhead_ns({100, 3000}, 2000), 0);
  // An override's fixed part is every runner's.
  EXPECT_DOUBLE_EQ(runner_window_overhead_ns({750, std::nullopt}, 3300), 750);
}

TEST(WindowOverhead, AMalformedOverrideNamesTheVariable) {
  for (const char* bad : {"", "abc", "12us", "-5", "nan", "1e9"}) {
    OverheadEnv e(bad);
    try {
      window_correction_to_apply("NVIDIA H200");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InputError& err) {
      EXPECT_NE(std::string(err.what()).find("ARENA_WINDOW_OVERHEAD_NS"), std::string::npos)
          << err.what();
    }
  }
}

}  // namespace
}  // namespace arena
