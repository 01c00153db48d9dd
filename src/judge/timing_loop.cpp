#include "judge/timing_loop.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/subprocess.hpp"
#include "judge/random.hpp"
#include "judge/sample_stats.hpp"
#include "judge/window_overhead.hpp"

namespace arena {

void Samples::keep(const CallOutcome& o, int runner_index) {
  runner.push_back(runner_index);
  runner_ns.push_back(static_cast<double>(o.runner_ns));
  host_ns.push_back(o.host_seconds * 1e9);
  cpu.push_back(
      {static_cast<double>(o.runner_ns), o.runner_cpu_ns, o.caller_cpu_ns, o.gone_cpu_ns});
  all_work_ns.push_back(static_cast<double>(o.all_work_ns));
}

void Samples::add(const CallOutcome& o, const std::optional<DeviceTelemetry>& t, int runner_index) {
  if (o.work_watched) ++work_watched;
  if (o.off_stream_work > 0 && off_stream_first.empty()) off_stream_first = o.off_stream_first;
  off_stream_work += o.off_stream_work;
  if (!o.timer_tampered.empty() && timer_tampered++ == 0) timer_tampered_first = o.timer_tampered;
  if (t) reasons_seen |= t->throttle_reasons;
  if (t && is_slowdown(t->throttle_reasons)) {
    ++slowdown;
    ++discarded;
    set_aside_.push_back({o, *t, runner_index});
    return;
  }
  keep(o, runner_index);
  if (t) telemetry.push_back(*t);
}

void Samples::finish() {
  size_t total = runner_ns.size() + set_aside_.size();
  if (set_aside_.empty() || 2 * set_aside_.size() <= total) return;
  for (const SetAside& a : set_aside_) {
    keep(a.outcome, a.runner);
    telemetry.push_back(a.telemetry);
  }
  set_aside_.clear();
  discarded = 0;
  throttled = true;
}

std::vector<double> Samples::median_per_runner(int runners) const {
  std::vector<double> medians;
  for (int i = 0; i < runners; ++i) {
    std::vector<double> mine;
    for (size_t k = 0; k < runner_ns.size(); ++k)
      if (runner[k] == i) mine.push_back(runner_ns[k]);
    medians.push_back(mine.empty() ? 0 : summarize(mine).median);
  }
  return medians;
}

TimingLoopResult run_timing_loop(Lane& candidate, Lane* baseline, const TimingLoopOptions& options,
                                 const std::function<std::string()>& check) {
  TimingLoopResult r;
  uint64_t nonce = 0x7157;
  // One timed call of a lane, its samples added to `samples` when given; false when it failed.
  const uint32_t graph = static_cast<uint32_t>(std::max(0, options.graph_launches));
  std::vector<int>
      threads_after_call;  // of the last call: the runner's thread ids right after its reply
  auto timed_call = [&](Lane& lane, Samples* samples, CallOutcome* failure) {
    if (options.before_call) options.before_call(lane);
    if (options.on_device) {
      lane.poison_outputs_on_device(++nonce);
    } else {
      lane.poison_outputs(++nonce);
    }
    // The warm-up (no samples) runs with the stream not held: see protocol::kCallNoHold.
    uint32_t flags = samples ? 0 : protocol::kCallNoHold;
    // On the host path outputs and guards move each way, inputs only when before_call wrote new
    // ones (checked after the loop); on the device nothing moves.
    CallOutcome o =
        lane.call(options.timeout_s * std::max<uint32_t>(1, graph), options.cold_cache, flags,
                  graph, options.on_device ? Lane::Transfer::kNone : Lane::Transfer::kOutputs);
    if (o.kind != CallOutcome::Kind::kOk) {
      *failure = o;
      return false;
    }
    if (options.after_call) options.after_call(lane);
    threads_after_call = o.threads_after;
    if (graph == 0 && options.window_overhead_ns > 0)
      o.runner_ns = static_cast<uint64_t>(std::llround(
          kernel_time_ns(static_cast<double>(o.runner_ns), options.window_overhead_ns)));
    if (graph > 1) {  // per call
      o.runner_ns /= graph;
      o.all_work_ns /= graph;
      o.host_seconds /= graph;
      for (double* ns : {&o.runner_cpu_ns, &o.caller_cpu_ns, &o.gone_cpu_ns})
        if (*ns >= 0) *ns /= graph;
    }
    if (samples)
      samples->add(o, options.telemetry ? options.telemetry() : std::nullopt, lane.runner_index());
    return true;
  };

  // Warm-up: one call of each runner of each lane (judge/timed_runners.hpp), the same as a timed
  // call, then discarded; a lane's runners are then called in turn, one per pair.
  int candidate_runners = candidate.runners();
  int baseline_runners = baseline ? baseline->runners() : 1;
  // Each candidate runner's threads after its warm-up: those a library starts at its first use
  // (OpenMP's pool, cuBLAS, the driver's) exist by now. A thread not among them that runs right
  // after a timed call (or at the end) was started by a timed call, which returned without it
  // finishing. Thread ids are the system's: no two runners share one.
  std::vector<std::vector<int>> known(static_cast<size_t>(candidate_runners));
  std::set<int> left_running;
  auto running = [&](const std::vector<int>& ids) {
    const std::vector<int>& k = known[static_cast<size_t>(candidate.runner_index())];
    std::vector<int> out;
    for (int id : ids) {
      if (std::binary_search(k.begin(), k.end(), id)) {
        out.push_back(id);
      } else if (candidate.runner_thread_running(id)) {
        out.push_back(id);
        left_running.insert(id);
      }
    }
    return out;
  };
  // A runner after the first whose warm-up call ran out of memory, where the first one's did not:
  // the solution keeps memory from its calls, and loaded once per runner it fits once. That comes
  // of the judge's choice to load it several times, not of the solution: the runner is dropped
  // (Lane::drop_runner) once every runner had its warm-up, and the side is timed on the others.
  auto out_of_memory_again = [](int i, const CallOutcome& o) {
    return i > 0 && o.kind == CallOutcome::Kind::kOom;
  };
  std::vector<std::pair<int, std::string>> candidate_drops, baseline_drops;
  auto why = [](const CallOutcome& o) {
    return "ran out of memory at its warm-up call where the first runner did not (the solution "
           "keeps memory from its calls): " +
           o.message;
  };
  CallOutcome failure;
  for (int i = 0; i < std::max(candidate_runners, baseline_runners); ++i) {
    candidate.use_runner(i % candidate_runners);
    if (baseline) baseline->use_runner(i % baseline_runners);
    if (options.before_pair) options.before_pair();
    if (i < candidate_runners) {
      if (!timed_call(candidate, nullptr, &failure)) {
        if (!out_of_memory_again(i, failure)) {
          r.candidate_failure = failure;
          return r;
        }
        candidate_drops.emplace_back(i, why(failure));
      } else {
        known[static_cast<size_t>(i)] = running(candidate.runner_thread_ids());
        left_running.clear();  // no timed call yet: none was left running by one
        r.threads_after_warmup = std::max(r.threads_after_warmup,
                                          static_cast<int>(known[static_cast<size_t>(i)].size()));
      }
    }
    if (baseline && i < baseline_runners && !timed_call(*baseline, nullptr, &failure)) {
      if (out_of_memory_again(i, failure)) {
        baseline_drops.emplace_back(i, why(failure));
      } else {
        r.baseline_failure = failure.message;
        baseline = nullptr;
      }
    }
  }
  // Later indices first: dropping one moves those after it down. (Where the warm-up ended early,
  // on a candidate failure, nothing is dropped: the shape fails, and the next prepare() restarts
  // the dead runners. A baseline that failed otherwise is not timed at all.)
  std::reverse(candidate_drops.begin(), candidate_drops.end());
  std::reverse(baseline_drops.begin(), baseline_drops.end());
  for (const auto& [i, because] : candidate_drops) {
    candidate.drop_runner(i, because);
    known.erase(known.begin() + i);
  }
  if (baseline)
    for (const auto& [i, because] : baseline_drops) baseline->drop_runner(i, because);
  candidate_runners = candidate.runners();
  baseline_runners = baseline ? baseline->runners() : 1;

  // Each pair of timed calls runs in a random order (drawn from options.order_seed), and the
  // check of the candidate's outputs follows the pair: whatever the judge does between calls
  // (checks, fresh inputs) then precedes either side's call equally often. The fixed order it
  // replaces (candidate, check, baseline) was one asymmetry between the sides; docs/timing.md
  // gives the A/A figures (identical code on both sides) before and after.
  auto call_baseline = [&] {
    if (baseline && !timed_call(*baseline, &r.baseline, &failure)) {
      r.baseline_failure = failure.message;
      baseline = nullptr;
    }
  };
  double start = now_seconds();
  for (uint64_t pair = 0;; ++pair) {
    const bool baseline_first =
        baseline != nullptr && (random_bits(options.order_seed, pair) & 1) != 0;
    ++r.pairs;
    candidate.use_runner(static_cast<int>(pair % static_cast<uint64_t>(candidate_runners)));
    if (baseline)
      baseline->use_runner(static_cast<int>(pair % static_cast<uint64_t>(baseline_runners)));
    if (options.before_pair) options.before_pair();
    if (baseline_first) {
      ++r.baseline_first;
      call_baseline();
    }
    if (!timed_call(candidate, &r.candidate, &failure)) {
      r.candidate_failure = failure;
      return r;
    }
    r.threads_max_timed =
        std::max(r.threads_max_timed, static_cast<int>(running(threads_after_call).size()));
    if (!baseline_first) call_baseline();
    r.check_failure = check();
    if (!r.check_failure.empty()) return r;
    double elapsed = now_seconds() - start;
    std::string c = options.rule.stop_reason(summarize(r.candidate.runner_ns), elapsed);
    std::string b =
        baseline ? options.rule.stop_reason(summarize(r.baseline.runner_ns), elapsed) : c;
    if (!c.empty() && !b.empty()) {
      r.candidate.finish();
      r.baseline.finish();
      for (int i = 0; i < candidate_runners; ++i) {
        candidate.use_runner(i);
        r.candidate_threads = std::max(r.candidate_threads, candidate.runner_threads());
        r.threads_after_timing =
            std::max(r.threads_after_timing,
                     static_cast<int>(running(candidate.runner_thread_ids()).size()));
      }
      r.threads_left_running = static_cast<int>(left_running.size());
      r.stop_reason =
          (c == "converged" && b == "converged") ? "converged" : (c != "converged" ? c : b);
      return r;
    }
  }
}

}  // namespace arena
