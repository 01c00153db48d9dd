// When to stop taking timing samples: once the median is known to the target precision, or at a
// cap on samples or seconds.
#pragma once

#include <string>

#include "judge/sample_stats.hpp"

namespace arena {

struct StoppingRule {
  double target_relative_ci = 0.01;  // 95% CI of the median within +-1%
  int min_samples = 10;
  int max_samples = 1000;
  double max_seconds = 2.0;  // per shape, baseline and candidate together

  // Returns "" to go on, else why it stopped: "converged", "max_samples", "max_seconds".
  std::string stop_reason(const SampleSummary& s, double elapsed_seconds) const;
};

}  // namespace arena
