#include "judge/sample_stats.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "judge/stopping_rule.hpp"

namespace arena {
namespace {

TEST(SampleStats, MedianOfOddAndEvenCounts) {
  EXPECT_EQ(summarize({3, 1, 2}).median, 2);
  EXPECT_EQ(summarize({4, 1, 3, 2}).median, 2.5);
}

TEST(SampleStats, ConfidenceIntervalBracketsTheMedianAndNarrowsWithSamples) {
  std::vector<double> few, many;
  for (int i = 0; i < 10; ++i) few.push_back(100 + i);
  for (int i = 0; i < 1000; ++i) many.push_back(100 + (i % 10));
  SampleSummary a = summarize(few), b = summarize(many);
  EXPECT_LE(a.ci_low, a.median);
  EXPECT_GE(a.ci_high, a.median);
  EXPECT_LT(b.relative_ci_half_width(), a.relative_ci_half_width());
}

TEST(SampleStats, CoefficientOfVariation) {
  EXPECT_EQ(summarize({5, 5, 5, 5}).cv, 0);
  EXPECT_NEAR(summarize({9, 11}).cv, std::sqrt(2.0) / 10, 1e-12);
}

TEST(StoppingRule, StopsWhenConvergedOrCapped) {
  StoppingRule rule;
  rule.min_samples = 10;
  std::vector<double> steady(10, 1000.0);
  EXPECT_EQ(rule.stop_reason(summarize(steady), 0.1), "converged");
  std::vector<double> noisy;
  for (int i = 0; i < 10; ++i) noisy.push_back(i % 2 ? 1000 : 2000);
  EXPECT_EQ(rule.stop_reason(summarize(noisy), 0.1), "");
  EXPECT_EQ(rule.stop_reason(summarize(noisy), rule.max_seconds + 1), "max_seconds");
  std::vector<double> lots(static_cast<size_t>(rule.max_samples), 1.0);
  lots[0] = 100;
  lots[1] = 0.01;
  EXPECT_NE(rule.stop_reason(summarize(lots), 0), "");
}

TEST(SampleStats, TheLogHalfWidthMatchesTheRelativeOneWhenNarrowAndStaysBoundedWhenWide) {
  SampleSummary narrow;
  narrow.median = 100;
  narrow.ci_low = 99;
  narrow.ci_high = 101;
  EXPECT_NEAR(narrow.log_ci_half_width(), narrow.relative_ci_half_width(), 1e-4);
  SampleSummary wide;  // a few samples, one of them descheduled: 80 .. 460 around 100
  wide.median = 100;
  wide.ci_low = 80;
  wide.ci_high = 460;
  EXPECT_NEAR(wide.relative_ci_half_width(), 1.9, 1e-12);
  EXPECT_NEAR(wide.log_ci_half_width(), std::log(460.0 / 80.0) / 2, 1e-12);
}

TEST(StoppingRule, NeverStopsOnTimeBeforeAFewSamples) {
  StoppingRule rule;
  EXPECT_EQ(rule.stop_reason(summarize({1, 2}), 100), "");
}

}  // namespace
}  // namespace arena
