// An episode's outcome from its final verdict: `improved` only when the speedup is above 1 beyond
// the measurement's noise.
#include <gtest/gtest.h>

#include <cmath>

#include "arena/episode_result.hpp"

namespace arena {
namespace {

// One correct shape of `set` whose candidate and baseline medians carry a 95 % CI of +-`ci`
// (relative): a speedup of `speedup` known to about +-ci*sqrt(2).
ShapeVerdict timed_shape(const std::string& set, double speedup, double ci) {
  ShapeVerdict s;
  s.set = set;
  s.correct = true;
  Timing t;
  t.candidate.median = 1000;
  t.candidate.ci_low = 1000 * (1 - ci);
  t.candidate.ci_high = 1000 * (1 + ci);
  SampleSummary b;
  b.median = 1000 * speedup;
  b.ci_low = b.median * (1 - ci);
  b.ci_high = b.median * (1 + ci);
  t.baseline = b;
  t.speedup = speedup;
  s.timing = t;
  return s;
}

Verdict verdict(double speedup, double ci, int shapes = 1) {
  Verdict v;
  v.compile.ok = true;
  for (int i = 0; i < shapes; ++i) v.shapes.push_back(timed_shape("visible", speedup, ci));
  ShapeVerdict held;
  held.set = "heldout";
  held.correct = true;
  v.shapes.push_back(held);
  return v;
}

TEST(EpisodeOutcome, FasterBeyondTheNoiseIsImproved) {
  EpisodeResult r;
  add_final_verdict(r, verdict(1.5, 0.02));
  EXPECT_EQ(r.outcome, "improved");
  ASSERT_TRUE(r.speedup_uncertainty);
  EXPECT_NEAR(*r.speedup_uncertainty, std::atanh(0.02) * std::sqrt(2.0), 1e-9);
}

TEST(EpisodeOutcome, ASpeedupWithinTheNoiseIsNoGain) {
  EpisodeResult r;
  add_final_verdict(r, verdict(1.003, 0.02));
  EXPECT_EQ(r.outcome, "no_gain");
  EXPECT_DOUBLE_EQ(*r.speedup, 1.003);  // still reported as measured
}

TEST(EpisodeOutcome, MoreShapesNarrowTheGeomeansUncertainty) {
  // 1.02x known to +-2.8 % on one shape is noise; the same on eight shapes (+-1 %) is not.
  EpisodeResult one, eight;
  add_final_verdict(one, verdict(1.02, 0.02, 1));
  add_final_verdict(eight, verdict(1.02, 0.02, 8));
  EXPECT_EQ(one.outcome, "no_gain");
  EXPECT_EQ(eight.outcome, "improved");
  EXPECT_NEAR(*eight.speedup_uncertainty, std::atanh(0.02) * std::sqrt(2.0) / std::sqrt(8.0), 1e-9);
}

TEST(EpisodeOutcome, AShortKernelsGainWithinTheRunnerOffsetIsNoGain) {
  // 4 us medians known to +-0.5 % within the eval: 1.03x is beyond that, but not beyond what two
  // runner processes of identical code differ by on a device with a 120 ns runner offset.
  Verdict v = verdict(1.03, 0.005, 4);
  for (auto& s : v.shapes)
    if (s.timing) {
      s.timing->candidate.median = 4000;
      s.timing->runner_offset_sd_ns = 120;
    }
  EpisodeResult r;
  add_final_verdict(r, v);
  EXPECT_EQ(r.outcome, "no_gain");
  for (auto& s : v.shapes)
    if (s.timing) s.timing->runner_offset_sd_ns.reset();
  EpisodeResult unmeasured;
  add_final_verdict(unmeasured, v);
  EXPECT_EQ(unmeasured.outcome, "improved");
}

TEST(EpisodeOutcome, MoreShapesDoNotNarrowTheRunnerOffsetsPart) {
  // The same runner processes time every shape: their offsets move all the medians alike, so
  // eight shapes average the medians' CIs down but not the offsets' part. 6 us medians known to
  // +-0.2 % each, 120 ns of runner offset: the offsets' part is the same on one shape and on
  // eight, and 1.02x on eight shapes stays no gain.
  auto with_offset = [](int shapes) {
    Verdict v = verdict(1.02, 0.002, shapes);
    for (auto& s : v.shapes)
      if (s.timing) {
        s.timing->candidate.median = 6000;
        s.timing->baseline->median = 6120;
        s.timing->runner_offset_sd_ns = 120;
      }
    return v;
  };
  const Verdict one = with_offset(1), eight = with_offset(8);
  const double offset = one.shapes[0].timing->runner_offset_part();
  EXPECT_NEAR(offset, 1.96 * std::hypot(120.0 / 6000, 120.0 / 6120), 1e-12);
  const double ci = std::atanh(0.002) * std::sqrt(2.0);
  EXPECT_NEAR(*one.geomean_speedup_uncertainty("visible"), std::hypot(ci, offset), 1e-9);
  EXPECT_NEAR(*eight.geomean_speedup_uncertainty("visible"), std::hypot(ci / std::sqrt(8.0), offset), 1e-9);
  EpisodeResult r;
  add_final_verdict(r, eight);
  EXPECT_EQ(r.outcome, "no_gain");
}

TEST(EpisodeOutcome, ALargeSpeedupMeasuredWithFewSamplesIsStillImproved) {
  // A slow baseline timed a few times on a busy host: its median's CI runs from 0.8x to 4.6x of
  // it (relative half-width 1.9). The candidate is 7.6x faster; even at the interval's low end
  // (baseline 0.8x, candidate at its own high end) it is faster by far. A relative reading of
  // the uncertainty (7.6 * (1 - 1.9) < 0) called it no gain.
  Verdict v = verdict(7.6, 0.01);
  for (auto& s : v.shapes)
    if (s.timing) {
      s.timing->baseline->ci_low = s.timing->baseline->median * 0.8;
      s.timing->baseline->ci_high = s.timing->baseline->median * 4.6;
    }
  EpisodeResult r;
  add_final_verdict(r, v);
  ASSERT_TRUE(r.speedup_uncertainty);
  EXPECT_GT(*r.speedup_uncertainty, 0.8);  // log(4.6 / 0.8) / 2 = 0.87
  EXPECT_EQ(r.outcome, "improved");
  // The same interval around a 1.5x does not exclude 1.
  EpisodeResult small;
  add_final_verdict(small, [&] {
    Verdict w = v;
    for (auto& s : w.shapes)
      if (s.timing) s.timing->speedup = 1.5;
    return w;
  }());
  EXPECT_EQ(small.outcome, "no_gain");
}

TEST(EpisodeOutcome, SlowerIsNoGain) {
  EpisodeResult r;
  add_final_verdict(r, verdict(0.8, 0.001));
  EXPECT_EQ(r.outcome, "no_gain");
}

}  // namespace
}  // namespace arena
