// Cross-checks the time a runner reports. The runner's clock lives in the solution's process,
// which may have patched it; the CPU time the kernel charged to that process cannot be faked from
// inside. A call that used c ns of CPU time on at most T threads (T no more than the cores) ran
// for at least c / T ns of wall time, whatever the runner says. Unlike the judge's own wall clock
// around the request, this bound does not grow when the machine is loaded. Threads a call starts
// and joins are gone when the judge counts them; but then the call used more CPU time than the
// wall time the judge saw around it, which only threads running side by side can do: such a call
// is allowed every core (T = cores).
#pragma once

#include <string>

namespace arena {

struct TimerCheck {
  bool plausible = true;
  double lower_bound_ns = 0;  // the least wall time the CPU time allows
};

// `reported_ns`, `cpu_ns` and `host_ns` (the judge's clock around the request) are medians over
// the timed calls; `threads` the runner's threads after them, `cores` the cores online.
TimerCheck check_reported_time(double reported_ns, double cpu_ns, int threads, int cores, double host_ns = 0);

}  // namespace arena
