#include "judge/stopping_rule.hpp"

namespace arena {

std::string StoppingRule::stop_reason(const SampleSummary& s, double elapsed_seconds) const {
  if (s.count >= min_samples && s.relative_ci_half_width() <= target_relative_ci) return "converged";
  if (s.count >= max_samples) return "max_samples";
  // The time cap still leaves a minimum of samples, however slow the calls.
  if (elapsed_seconds >= max_seconds && s.count >= std::min(min_samples, 5)) return "max_seconds";
  return "";
}

}  // namespace arena
