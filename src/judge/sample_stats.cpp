#include "judge/sample_stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace arena {

double SampleSummary::log_ci_half_width() const {
  if (ci_low <= 0 || ci_high <= 0) return relative_ci_half_width();
  return std::log(ci_high / ci_low) / 2;
}

SampleSummary summarize(std::vector<double> samples) {
  SampleSummary s;
  s.count = static_cast<int>(samples.size());
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  size_t n = samples.size();
  s.min = samples.front();
  s.median = n % 2 == 1 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(n);
  double var = 0;
  for (double x : samples) var += (x - s.mean) * (x - s.mean);
  s.cv = n > 1 && s.mean > 0 ? std::sqrt(var / static_cast<double>(n - 1)) / s.mean : 0;
  // The ranks n/2 -+ 1.96*sqrt(n)/2 bound the median with ~95% confidence (normal approximation
  // to the binomial); clamped to the sample, so small samples get wide intervals.
  double half = 1.96 * std::sqrt(static_cast<double>(n)) / 2;
  auto lo = static_cast<long>(std::floor(static_cast<double>(n) / 2 - half));
  auto hi = static_cast<long>(std::ceil(static_cast<double>(n) / 2 + half));
  lo = std::clamp(lo, 0L, static_cast<long>(n) - 1);
  hi = std::clamp(hi, 0L, static_cast<long>(n) - 1);
  s.ci_low = samples[static_cast<size_t>(lo)];
  s.ci_high = samples[static_cast<size_t>(hi)];
  return s;
}

}  // namespace arena
