#include "judge/timer_check.hpp"

#include <algorithm>
#include <cstddef>

namespace arena {

TimerCheck check_reported_time(const CallCpu& call, int threads, int cores) {
  TimerCheck c;
  if (call.process_ns <= 0) return c;  // unknown: nothing to check against
  cores = std::max(1, cores);
  double bound = std::max(call.caller_ns, call.process_ns / cores);
  // Every thread that ran is still there: the CPU time came from at most `threads` of them. A
  // little CPU time of gone threads is slack for the per-thread figures, which the kernel brings
  // up to date at the next tick while a thread keeps running.
  const bool none_gone = call.gone_ns >= 0 && call.gone_ns <= 0.05 * call.process_ns + 50e3;
  if (none_gone) bound = std::max(bound, call.process_ns / std::clamp(threads, 1, cores));
  c.lower_bound_ns = bound;
  // Slack for what the CPU time includes beyond the call (the request's own handling: a few
  // microseconds idle, 30-40 us measured on a loaded two-core machine). Calls under ~0.2 ms
  // are thus not checked.
  c.plausible = call.reported_ns >= 0.8 * bound - 100e3;
  return c;
}

TimerCheck check_reported_times(const std::vector<CallCpu>& calls, int threads, int cores) {
  TimerCheck c;
  size_t known = 0;
  std::vector<double> bounds;  // of the implausible calls
  for (const CallCpu& call : calls) {
    if (call.process_ns <= 0) continue;
    ++known;
    TimerCheck one = check_reported_time(call, threads, cores);
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
