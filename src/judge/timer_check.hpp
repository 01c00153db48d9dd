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
#include <vector>

namespace arena {

struct TimerCheck {
  bool plausible = true;
  double lower_bound_ns = 0;  // the least wall time the CPU time allows
};

// `reported_ns`, `cpu_ns` and `host_ns` (the judge's clock around the request, less the time the
// runner and the judge waited for a core) are one call's or medians over the timed calls; `threads` the runner's threads after them, `cores` the cores online.
TimerCheck check_reported_time(double reported_ns, double cpu_ns, int threads, int cores, double host_ns = 0);

// The same check call by call: the i-th entries of `reported_ns`, `cpu_ns` (negative: unknown)
// and `host_ns` (empty: unknown) are one call's. Implausible when more than half of the calls
// with a known CPU time are; `lower_bound_ns` is then the median bound of those. Pairing each
// call's own figures matters on a loaded machine: the medians of the three series can come from
// different calls (one where a joined thread ran beside the caller, one where it waited for a
// core), and set side by side they describe no call at all.
TimerCheck check_reported_times(const std::vector<double>& reported_ns,
                                const std::vector<double>& cpu_ns,
                                const std::vector<double>& host_ns, int threads, int cores);

}  // namespace arena
