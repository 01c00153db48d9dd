// The runner offset: a measured per-device spread between runner processes, folded into the
// speedup's uncertainty.
#include "judge/runner_offset.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "judge/verdict.hpp"

namespace arena {
namespace {

TEST(RunnerOffset, KnownForTheMeasuredDeviceOnly) {
  ASSERT_TRUE(runner_offset_sd_ns("NVIDIA H200"));
  EXPECT_GT(*runner_offset_sd_ns("NVIDIA H200"), 0);
  // The H100's row: the root mean square of its six A/A rows (59 ns), below the H200's.
  ASSERT_TRUE(runner_offset_sd_ns("NVIDIA H100 80GB HBM3"));
  EXPECT_NEAR(*runner_offset_sd_ns("NVIDIA H100 80GB HBM3"), 59, 5);
  EXPECT_LT(*runner_offset_sd_ns("NVIDIA H100 80GB HBM3"), *runner_offset_sd_ns("NVIDIA H200"));
  EXPECT_FALSE(runner_offset_sd_ns("NVIDIA H100 PCIe"));  // measured on the SXM part only
  EXPECT_FALSE(runner_offset_sd_ns("NVIDIA H200 NVL"));
  EXPECT_FALSE(runner_offset_sd_ns("AMD EPYC 7763 64-Core Processor"));
  EXPECT_FALSE(runner_offset_sd_ns(""));
}

TEST(RunnerOffset, MattersForShortKernelsOnly) {
  // 100 ns per runner: two 4 us medians -> 1.96 * 100 * sqrt(2) / 4000 = 6.9 %; two 1 ms -> 0.03 %.
  EXPECT_NEAR(runner_offset_uncertainty(100, 4000, 4000), 1.96 * 100 * std::sqrt(2.0) / 4000,
              1e-12);
  EXPECT_LT(runner_offset_uncertainty(100, 1e6, 1e6), 0.0003);
  EXPECT_EQ(runner_offset_uncertainty(0, 4000, 4000), 0);
  EXPECT_EQ(runner_offset_uncertainty(100, 0, 4000), 0);
}

TEST(RunnerOffset, WidensTheSpeedupsUncertainty) {
  Timing t;
  t.candidate.median = 4000;
  t.candidate.ci_low = 3980;
  t.candidate.ci_high = 4020;  // +-0.5 %
  SampleSummary b = t.candidate;
  t.baseline = b;
  t.speedup = 1.0;
  const double without = *t.speedup_uncertainty();
  EXPECT_NEAR(without, std::atanh(0.005) * std::sqrt(2.0), 1e-9);
  t.runner_offset_sd_ns = 100;
  EXPECT_NEAR(*t.speedup_uncertainty(),
              std::hypot(without, runner_offset_uncertainty(100, 4000, 4000)), 1e-12);
}

TEST(RunnerOffset, ShrinksWithTheRootOfEachSidesRunners) {
  // Two runners a side: each median carries the mean of two offsets, sd / sqrt 2.
  EXPECT_NEAR(runner_offset_uncertainty(100, 4000, 4000, 2, 2), runner_offset_uncertainty(100, 4000, 4000) / std::sqrt(2.0),
              1e-12);
  EXPECT_NEAR(runner_offset_uncertainty(100, 4000, 8000, 4, 1),
              1.96 * std::hypot(50.0 / 4000, 100.0 / 8000), 1e-12);
  Timing t;
  t.candidate.median = t.candidate.ci_low = t.candidate.ci_high = 4000;
  t.baseline = t.candidate;
  t.speedup = 1.0;
  t.runner_offset_sd_ns = 100;
  const double one = *t.speedup_uncertainty();
  t.runners = t.baseline_runners = 3;
  EXPECT_NEAR(*t.speedup_uncertainty(), one / std::sqrt(3.0), 1e-12);
}

}  // namespace
}  // namespace arena
