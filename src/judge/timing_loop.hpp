// The timing loop: candidate and baseline called in turn (A B A B ...) in one window, each call
// on freshly poisoned outputs and (cold mode) evicted caches, until the stopping rule is met.
// Every timed output of the candidate is checked by the caller's `check` callback.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "judge/lane.hpp"
#include "judge/stopping_rule.hpp"

namespace arena {

// What one side's timed calls measured, one entry per call.
struct Samples {
  std::vector<double> runner_ns;    // as the runner reported: the samples
  std::vector<double> host_ns;      // the judge's clock around the request (IPC included)
  std::vector<double> cpu_ns;       // CPU time the runner's process used (from the kernel)
  std::vector<double> all_work_ns;  // until the whole device was idle again
  void add(const CallOutcome& o);
};

struct TimingLoopResult {
  Samples candidate;
  Samples baseline;
  int candidate_threads = 0;  // threads in the candidate's process after the loop
  std::string stop_reason;
  std::optional<CallOutcome> candidate_failure;  // the candidate died or hung while timed
  std::string check_failure;                     // a timed output failed its check
  std::string baseline_failure;
};

struct TimingLoopOptions {
  StoppingRule rule;
  bool cold_cache = true;
  double timeout_s = 10;
};

// `check` looks at the candidate's outputs after each timed call; it returns "" when they are
// right, else what is wrong.
TimingLoopResult run_timing_loop(Lane& candidate, Lane* baseline, const TimingLoopOptions& options,
                                 const std::function<std::string()>& check);

}  // namespace arena
