// The timing loop: candidate and baseline called in pairs, each pair in a random order (A B, B A,
// ...) in one window, each call on freshly poisoned outputs and (cold mode) evicted caches, until
// the stopping rule is met. A lane with several runners (judge/timed_runners.hpp) has them called
// in turn, one per pair, each warmed up once first; their samples make one series per side (a
// runner after the first whose warm-up call ran out of memory is dropped: Lane::drop_runner).
// Every timed output of the candidate is checked by the caller's `check` callback, after each pair.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "judge/device_telemetry.hpp"
#include "judge/lane.hpp"
#include "judge/stopping_rule.hpp"
#include "judge/timer_check.hpp"

namespace arena {

// What one side's timed calls measured, one entry per kept call.
//
// A call after which the device reports a real slowdown (power cap, thermal or hardware
// slowdown, power brake: throttle::kSlowdown) measured a device slower than the one the task is
// judged on: it is set aside. When more than half of the calls would be set aside, the device
// was slowed down for most of the run: they are all kept after all (discarding most of the
// measurement would keep a biased rest) and `throttled` is raised, which the judge turns into
// a flag that does not void the speedup: candidate and baseline alternate call by call, so both
// ran under the same conditions.
struct Samples {
  std::vector<double> runner_ns;  // as the runner reported: the samples
  std::vector<double> host_ns;    // the judge's clock around the request (IPC included)
  // The CPU times the kernel charged to the runner's threads (timer_check.hpp), with the
  // reported time. The i-th entry of each series is the i-th kept call's.
  std::vector<CallCpu> cpu;
  std::vector<double> all_work_ns;  // until the whole device was idle again
  std::vector<int> runner;          // which of the lane's runners made the call (Lane::use_runner)
  std::vector<DeviceTelemetry> telemetry;  // the device's state after each kept call, where read
  uint64_t reasons_seen = 0;  // every throttle reason of any reading, set-aside calls' included
  int slowdown = 0;           // calls taken while the device reported a slowdown
  int discarded = 0;          // ... of which not in the samples
  bool throttled = false;     // more than half the calls were slowed down: kept after all
  // Work enqueued where it was not ordered after the window's start (CallOutcome), over every
  // timed call, the set-aside ones included: the calls watched, the count, the first's name.
  int work_watched = 0;
  uint64_t off_stream_work = 0;
  std::string off_stream_first;
  // Timed calls after which the runner found its timing path changed (CallOutcome), set-aside
  // calls included, and what it said the first time.
  int timer_tampered = 0;
  std::string timer_tampered_first;

  // One timed call by runner `runner` of its lane, with the device's state after it (nullopt:
  // not known, the call is kept).
  void add(const CallOutcome& o, const std::optional<DeviceTelemetry>& t = std::nullopt,
           int runner = 0);
  // After the last call: when more than half of the calls were set aside, keeps them after all.
  void finish();
  // The median of each runner's kept samples (runners 0 .. runners - 1; 0 for one with none).
  std::vector<double> median_per_runner(int runners) const;

 private:
  void keep(const CallOutcome& o, int runner);
  struct SetAside {
    CallOutcome outcome;
    DeviceTelemetry telemetry;
    int runner = 0;
  };
  std::vector<SetAside> set_aside_;
};

struct TimingLoopResult {
  Samples candidate;
  Samples baseline;
  int candidate_threads = 0;  // threads in the candidate's process after the loop
  // The candidate's running threads (not exiting), counted by the judge from /proc: after the
  // warm-up call, the most right after any timed call, and after the loop (the most of any of
  // its runners); and how many
  // threads that were not there after the warm-up were running right after a timed call or at
  // the end: threads a timed call left running when it returned (the host_thread flag).
  int threads_after_warmup = 0;
  int threads_max_timed = 0;
  int threads_after_timing = 0;
  int threads_left_running = 0;
  std::string stop_reason;
  int pairs = 0;                                 // timed pairs of calls
  int baseline_first = 0;                        // ... of which the baseline's call came first
  std::optional<CallOutcome> candidate_failure;  // the candidate died or hung while timed
  std::string check_failure;                     // a timed output failed its check
  std::string baseline_failure;
};

struct TimingLoopOptions {
  StoppingRule rule;
  bool cold_cache = true;
  double timeout_s = 10;
  // The device's state, read after every timed call (a backend's telemetry()); none when empty.
  std::function<std::optional<DeviceTelemetry>()> telemetry;
  // --graph: each sample is one replay of this many calls captured into a CUDA graph; every
  // time of a sample is then divided by it (per call). 0: one plain call per sample.
  int graph_launches = 0;
  // The device's measured event-window overhead (judge/window_overhead.hpp), taken off every
  // plain call's device time before it becomes a sample; 0: none. Not applied to graph replays
  // (their window holds a graph launch, whose fixed part was not measured).
  double window_overhead_ns = 0;
  // Called before each pair of timed calls (and once before the warm-ups), then before every
  // call of either lane, warm-up included (fresh inputs: judge/reordering). Work that readies a
  // pair (drawing new inputs) belongs in before_pair, so that what precedes each side's call is
  // the same: host work before only one side's call leaves the device idle before it, and a
  // device just idle runs the next kernel measurably slower (docs/timing.md, A/A).
  std::function<void()> before_pair;
  std::function<void(Lane&)> before_call;
  // Called right after every successful call of either lane (warm-up included): what must see
  // the lane's buffers as the call left them, before anything else runs (the device path's
  // snapshot: outputs read later could have been finished by deferred work meanwhile).
  std::function<void(Lane&)> after_call;
  // Draws which side of each pair is called first.
  uint64_t order_seed = 0;
  // The lanes' buffers live on the device plane (judge/timed_data_on_device.hpp): outputs are
  // poisoned there and nothing moves between host and device around a call.
  bool on_device = false;
};

// `check` looks at the candidate's outputs after each timed call; it returns "" when they are
// right, else what is wrong.
TimingLoopResult run_timing_loop(Lane& candidate, Lane* baseline, const TimingLoopOptions& options,
                                 const std::function<std::string()>& check);

}  // namespace arena
