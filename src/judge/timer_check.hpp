// Cross-checks the time a runner reports. The runner's clock lives in the solution's process,
// which may have patched it; the CPU time the kernel charged to that process cannot be faked from
// inside. A call that used c ns of CPU time on at most T threads (T no more than the cores) ran
// for at least c / T ns of wall time, whatever the runner says. Unlike the judge's own wall clock
// around the request, this bound does not grow when the machine is loaded.
#pragma once

#include <string>

namespace arena {

struct TimerCheck {
  bool plausible = true;
  double lower_bound_ns = 0;  // the least wall time the CPU time allows
};

// `reported_ns` and `cpu_ns` are medians over the timed calls; `threads` the runner's threads,
// `cores` the cores online.
TimerCheck check_reported_time(double reported_ns, double cpu_ns, int threads, int cores);

}  // namespace arena
