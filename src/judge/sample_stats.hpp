// Summary statistics of timing samples: the median with a distribution-free 95% confidence
// interval (order statistics), and the coefficient of variation.
#pragma once

#include <vector>

namespace arena {

struct SampleSummary {
  int count = 0;
  double median = 0;
  double ci_low = 0;   // 95% confidence interval of the median
  double ci_high = 0;
  double mean = 0;
  double min = 0;
  double cv = 0;       // standard deviation / mean
  // Half the CI's width relative to the median: the precision the stopping rule targets.
  double relative_ci_half_width() const { return median > 0 ? (ci_high - ci_low) / (2 * median) : 0; }
  // Half the CI's width on a log scale, ln(ci_high / ci_low) / 2: the same as the relative
  // half-width for narrow intervals, and the one that composes for ratios (a speedup's
  // uncertainty is the two sides' in quadrature) and stays honest for wide, lopsided ones.
  double log_ci_half_width() const;
};

SampleSummary summarize(std::vector<double> samples);

}  // namespace arena
