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

struct TimingLoopResult {
  std::vector<double> candidate_ns;       // as the runner reported
  std::vector<double> candidate_host_ns;  // as the judge saw (protocol round trip included)
  std::vector<double> baseline_ns;
  std::vector<double> candidate_cpu_ns;   // CPU time the candidate's process used per call
  int candidate_threads = 0;              // threads in the candidate's process after the loop
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
