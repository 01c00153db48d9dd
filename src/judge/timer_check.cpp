#include "judge/timer_check.hpp"

#include <algorithm>

namespace arena {

TimerCheck check_reported_time(double reported_ns, double cpu_ns, int threads, int cores) {
  TimerCheck c;
  if (cpu_ns <= 0) return c;  // unknown: nothing to check against
  int parallel = std::max(1, std::min(threads, cores));
  c.lower_bound_ns = cpu_ns / parallel;
  // Slack for what the CPU time includes beyond the call (the request's own handling, a few
  // microseconds) and for threads that do not start and stop exactly with the call.
  c.plausible = reported_ns >= 0.8 * c.lower_bound_ns - 20e3;
  return c;
}

}  // namespace arena
