#include "judge/timer_check.hpp"

#include <algorithm>
#include <cstddef>

namespace arena {

TimerCheck check_reported_time(double reported_ns, double cpu_ns, int threads, int cores, double host_ns) {
  TimerCheck c;
  if (cpu_ns <= 0) return c;  // unknown: nothing to check against
  // More CPU time than wall time around the request: threads ran side by side (perhaps ones the
  // call started and joined, which no count after it sees).
  const bool side_by_side = host_ns > 0 && cpu_ns > 1.05 * host_ns;
  int parallel = std::max(1, side_by_side ? cores : std::min(threads, cores));
  c.lower_bound_ns = cpu_ns / parallel;
  // Slack for what the CPU time includes beyond the call (the request's own handling: a few
  // microseconds idle, 30-40 us measured on a loaded two-core machine) and for threads that do
  // not start and stop exactly with the call. Calls under ~0.2 ms are thus not checked.
  c.plausible = reported_ns >= 0.8 * c.lower_bound_ns - 100e3;
  return c;
}

TimerCheck check_reported_times(const std::vector<double>& reported_ns,
                                const std::vector<double>& cpu_ns,
                                const std::vector<double>& host_ns, int threads, int cores) {
  TimerCheck c;
  size_t known = 0;
  std::vector<double> bounds;  // of the implausible calls
  for (size_t i = 0; i < reported_ns.size() && i < cpu_ns.size(); ++i) {
    if (cpu_ns[i] <= 0) continue;
    ++known;
    double host = i < host_ns.size() ? host_ns[i] : 0;
    TimerCheck one = check_reported_time(reported_ns[i], cpu_ns[i], threads, cores, host);
    if (!one.plausible) bounds.push_back(one.lower_bound_ns);
  }
  if (known == 0 || 2 * bounds.size() <= known) return c;
  std::nth_element(bounds.begin(), bounds.begin() + static_cast<std::ptrdiff_t>(bounds.size() / 2),
                   bounds.end());
  c.plausible = false;
  c.lower_bound_ns = bounds[bounds.size() / 2];
  return c;
}

}  // namespace arena
