// Cross-checks the time a runner reports. The runner's clock lives in the solution's process,
// which may have patched it; the CPU time the kernel charged to that process's threads cannot be
// faked from inside. Three lower bounds on a call's wall time follow from it, whatever the
// runner says and however loaded the machine is:
//   - the CPU time of the thread that ran the entry point (one thread runs on one core at a time);
//   - the process's CPU time / the cores online;
//   - the process's CPU time / min(threads, cores), where every thread that ran during the call
//     still exists after it (threads started and joined within the call are gone by then; their
//     CPU time is what the process used beyond the threads that remain).
// None of them needs the judge's clock around the request, which waits for cores on a loaded
// machine (and the kernel's per-thread run delays, read around one request, were seen off by
// the whole call's length).
#pragma once

#include <vector>

namespace arena {

// One timed call's figures; CPU times as the kernel counts them, negative where unknown.
struct CallCpu {
  double reported_ns = 0;  // the runner's clock
  double process_ns = -1;  // all threads of the runner's process
  double caller_ns = -1;   // the thread that called the entry point
  double gone_ns = -1;     // of process_ns, threads that no longer exist after the call
};

struct TimerCheck {
  bool plausible = true;
  double lower_bound_ns = 0;  // the least wall time the CPU times allow
};

// `threads`: the runner's threads after the call(s); `cores`: the cores online.
TimerCheck check_reported_time(const CallCpu& call, int threads, int cores);

// The same check call by call. Implausible when more than half of the calls with a known
// process CPU time are; `lower_bound_ns` is then the median bound of those. Pairing each call's
// own figures matters on a loaded machine: medians of the separate series can come from
// different calls and describe no call at all.
TimerCheck check_reported_times(const std::vector<CallCpu>& calls, int threads, int cores);

}  // namespace arena
