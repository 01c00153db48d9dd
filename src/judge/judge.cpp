#include "judge/judge.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <optional>
#include <sstream>
#include <thread>

#include "core/error.hpp"
#include "core/parallel.hpp"
#include "core/sha256.hpp"
#include "core/subprocess.hpp"
#include "judge/checked_calls.hpp"
#include "judge/checker.hpp"
#include "judge/device_lock.hpp"
#include "judge/device_plane.hpp"
#include "judge/failure_explanation.hpp"
#include "judge/input_generator.hpp"
#include "judge/lane.hpp"
#include "judge/outside_stream.hpp"
#include "judge/placements.hpp"
#include "judge/random.hpp"
#include "judge/reordering.hpp"
#include "judge/runner_offset.hpp"
#include "judge/runner_pool.hpp"
#include "judge/sanitizer_run.hpp"
#include "judge/teardown.hpp"
#include "judge/timed_data_on_device.hpp"
#include "judge/timed_runners.hpp"
#include "judge/timer_check.hpp"
#include "judge/timing_loop.hpp"
#include "judge/window_overhead.hpp"

namespace arena {
namespace {

std::string fmt_number(double v) {
  std::ostringstream s;
  s.precision(7);
  s << v;
  return s.str();
}

std::string describe_mismatch(const OutputCheck& c) {
  std::string s = c.tensor;
  if (c.first) {
    const Mismatch& m = *c.first;
    s += coords_text(m.coords) + " (flat index " + std::to_string(m.index) + ") is " +
         (m.unwritten ? "unwritten (still the poison value)" : fmt_number(m.got)) + ", expected " +
         fmt_number(m.expected) + " (allowed error " + fmt_number(m.bound) + ")";
  }
  s +=
      "; " + std::to_string(c.mismatches) + " of " + std::to_string(c.elements) + " elements wrong";
  if (!c.where.empty()) s += ", " + c.where;
  if (c.pattern == "unwritten") s += "; the output was never written";
  if (c.pattern == "zeros") s += "; the output is all zeros";
  if (c.pattern == "constant") s += "; the output is one constant value";
  if (c.unwritten > 0 && c.pattern != "unwritten")
    s += "; " + std::to_string(c.unwritten) + " elements were never written";
  return s;
}

FailureClass class_of(const CallOutcome& o) {
  switch (o.kind) {
    case CallOutcome::Kind::kTimeout:
      return FailureClass::kTimeout;
    case CallOutcome::Kind::kOom:
      return FailureClass::kOom;
    case CallOutcome::Kind::kLaunchError:
      return FailureClass::kLaunchError;
    case CallOutcome::Kind::kSandboxViolation:
      return FailureClass::kSandboxViolation;
    default:
      return FailureClass::kCrash;
  }
}

class Judge {
 public:
  // `window_overhead`: what comes off each timed call's device time (window_overhead.hpp); nullopt
  // for graph replays and host-clock backends.
  // `placements`: how many places each timed side rotates through (placements.hpp).
  // `timed_runners`: how many runner processes each timed side is spread over (timed_runners.hpp).
  Judge(const Task& task, const Backend& backend, const JudgeOptions& options, Verdict& verdict,
        std::optional<double> window_overhead, int placements, int timed_runners)
      : task_(task),
        backend_(backend),
        options_(options),
        v_(verdict),
        window_overhead_(window_overhead),
        placements_(placements),
        timed_runners_(options.timing ? timed_runners : 1) {}

  void run(const std::string& source) {
    v_.warnings = scan_source(source, backend_.name());
    // The runners and the device helper come up while the solution compiles; they load it after.
    if (!options_.compile_only) start_ahead();
    double t0 = now_seconds();
    progress("compiling the solution");
    CompileResult c = backend_.compile(task_, source, task_.libraries);
    v_.compile = {c.ok,
                  c.cached,
                  c.seconds,
                  c.key,
                  c.command,
                  c.log,
                  c.ok ? std::vector<std::string>{} : forbidden_symbols(task_, c.log)};
    v_.seconds["compile"] = now_seconds() - t0;
    if (!c.ok || options_.compile_only) return;

    double t1 = now_seconds();
    std::filesystem::path reference =
        compile_task_file(task_, backend_, task_.reference, "reference", task_.all_libraries());
    std::filesystem::path baseline;
    if (needs_baseline())
      baseline =
          options_.baseline.empty()
              ? compile_task_file(task_, backend_, task_.baseline, "baseline", task_.libraries)
              : compile_task_file(task_, backend_, options_.baseline, "baseline",
                                  options_.baseline_libraries);
    v_.seconds["compile_reference_and_baseline"] = now_seconds() - t1;

    int64_t max_region = 0;
    for (const auto& js : options_.shapes)
      max_region = std::max(max_region, region_bytes(task_, js.shape));
    reference_ = std::make_unique<Lane>(backend_, task_, reference, max_region);
    reference_->use_trusted_runners();
    candidate_ = std::make_unique<Lane>(backend_, task_, c.library, max_region);
    if (needs_baseline()) baseline_ = std::make_unique<Lane>(backend_, task_, baseline, max_region);
    for (Lane* timed : {candidate_.get(), baseline_.get()}) {
      if (timed == nullptr) continue;
      timed->use_placements(placements_);
      timed->use_runners(timed_runners_);  // its checked calls use the first
    }
    // Where the backend has a device helper, every lane's device buffers are the helper's: the
    // checked calls and the timed ones lay out and check their tensors there
    // (judge/checked_calls.hpp, judge/timed_data_on_device.hpp).
    if (auto helper = backend_.device_helper()) plane_ = pool().take_plane(*helper);
    for (Lane* lane : {reference_.get(), candidate_.get(), baseline_.get()}) {
      if (lane == nullptr) continue;
      lane->use_runner_pool(&pool());
      if (plane_) lane->use_device_plane(plane_.get());
      // Each loads its library now, in a runner that was started ahead of need where one
      // waits; each lane waits for its own when first used.
      lane->start();
    }

    for (size_t i = 0; i < options_.shapes.size(); ++i) {
      progress("shape " + std::to_string(i + 1) + "/" + std::to_string(options_.shapes.size()) +
               ": " + options_.shapes[i].shape.label());
      v_.shapes.push_back(judge_shape(i, options_.shapes[i]));
    }
    double starts = reference_->runner_start_seconds() + candidate_->runner_start_seconds() +
                    (baseline_ ? baseline_->runner_start_seconds() : 0);
    v_.seconds["runner_start"] = starts;

    if (options_.sanitize) {
      // Once, on the smallest visible shape; instrumented calls are slow, hence the generous limit.
      // Correctness work: beside other judges' checks, not beside their timing.
      double ts = now_seconds();
      DeviceLock device_use(backend_.device_key(), {}, DeviceLock::Mode::kShared);
      v_.sanitizer = run_sanitizer(task_, backend_, c.library, stream_key(options_.seed, 0x5A417),
                                   10 * timeout() + 60, options_.progress);
      v_.seconds["sanitizer"] = now_seconds() - ts;
    }
    // A pool that outlives this eval (the rounds of an episode): the next eval's runners come
    // up while the agent works on its next version.
    if (options_.runners != nullptr && options_.start_next_runners) start_ahead();
  }

  // Ends this eval's runners and device helper: all are killed, then handed over with the
  // device's shared lock (judge/teardown.hpp): their CUDA contexts are torn down side by side
  // and off the eval's path, and no other judge's timing loop runs beside that device work
  // (judge/device_lock.hpp). The verdict is complete by now: a lock that cannot be had does not
  // keep the runners alive.
  void stop_runners() {
    if (!reference_ && !candidate_ && !baseline_ && !plane_) return;
    double t = now_seconds();
    std::optional<DeviceLock> device_use;
    try {
      device_use.emplace(backend_.device_key(), device_wait_note(), DeviceLock::Mode::kShared);
    } catch (const std::exception&) {
    }
    add_seconds("device_wait", t);
    t = now_seconds();
    std::vector<pid_t> killed;
    for (Lane* lane : {reference_.get(), candidate_.get(), baseline_.get()})
      if (lane != nullptr) std::ranges::copy(lane->hand_over(), std::back_inserter(killed));
    if (plane_) killed.push_back(plane_->hand_over());
    reference_.reset();
    candidate_.reset();
    baseline_.reset();
    plane_.reset();
    hand_over_teardown(std::move(killed), device_use ? &*device_use : nullptr);
    add_seconds("teardown", t);
  }

 private:
  void progress(const std::string& line) const {
    if (options_.progress) options_.progress(line);
  }

  // What a DeviceLock tells when the judge must wait for the device (judge/device_lock.hpp).
  std::function<void(const std::string&)> device_wait_note() const {
    return [this](const std::string& who) { progress("waiting for the device: " + who); };
  }

  // The baseline also runs where it is not timed: on held-out shapes its correctness makes the
  // candidate's quadrant (regression, improvement, ...).
  bool needs_baseline() const {
    bool heldout = false;
    for (const auto& js : options_.shapes) heldout = heldout || js.set == "heldout";
    return options_.timing || heldout;
  }

  RunnerPool& pool() { return options_.runners != nullptr ? *options_.runners : own_runners_; }

  // Has the pool start what this eval's lanes will take: a runner per lane (a timed lane's
  // several: timed_runners.hpp), and the device helper where the backend has one.
  void start_ahead() {
    if (auto helper = backend_.device_helper()) pool().fill_plane(*helper);
    const RunnerSpec plain = lane_runner_spec(backend_, {}, 0);
    const RunnerSpec trusted = lane_runner_spec(backend_, {}, 0, /*trusted=*/true);  // the reference's
    const size_t timed = static_cast<size_t>(timed_runners_) * (needs_baseline() ? 2 : 1);
    // fill() tops a kind up to a count: where the backend's trusted runner is its plain one, one order.
    if (RunnerPool::interchangeable(plain, trusted)) {
      pool().fill(plain, 1 + timed);
    } else {
      pool().fill(trusted, 1);
      pool().fill(plain, timed);
    }
  }

  double timeout() const {
    return options_.timeout_s > 0 ? options_.timeout_s : task_.limits.timeout_s;
  }

  void add_seconds(const char* what, double since) { v_.seconds[what] += now_seconds() - since; }

  static ShapeVerdict fail(ShapeVerdict sv, FailureClass c, std::string message) {
    sv.correct = false;
    sv.failure = c;
    sv.message = std::move(message);
    return sv;
  }

  ShapeVerdict judge_shape(size_t index, const JudgedShape& js) {
    ShapeVerdict sv;
    sv.shape = js.shape;
    sv.set = js.set;
    sv.category = js.category;
    const Shape& shape = js.shape;

    // The shape's correctness work shares the device with other judges' but not with their
    // timing (judge/device_lock.hpp); time_shape lets it go before it asks for the lock itself.
    double t = now_seconds();
    std::optional<DeviceLock> device_use(std::in_place, backend_.device_key(), device_wait_note(),
                                         DeviceLock::Mode::kShared);
    add_seconds("device_wait", t);

    t = now_seconds();
    std::string err = reference_->prepare(shape);
    if (!err.empty())
      return fail(sv, FailureClass::kReferenceError,
                  "the reference's runner failed to start: " + err);
    err = candidate_->prepare(shape);
    add_seconds("prepare", t);
    if (!err.empty()) {
      // A denied call from a static constructor is the same violation as one from a call.
      const bool denied = candidate_->start_failure_kind() == CallOutcome::Kind::kSandboxViolation;
      if (denied && !v_.sandbox) v_.sandbox = SandboxInfo{true, "", false, ""};
      return fail(
          sv, denied ? FailureClass::kSandboxViolation : FailureClass::kCrash,
          denied ? "while the solution was loaded, " + err : "the solution failed to load: " + err);
    }
    if (!v_.sandbox)
      v_.sandbox =
          SandboxInfo{candidate_->sandbox().on, candidate_->sandbox().why_off,
                      candidate_->sandbox().reads_confined, candidate_->sandbox().reads_why_open};

    // The baseline, once per shape where it is needed: held-out shapes judge its correctness,
    // timing times it.
    const bool heldout = js.set == "heldout";
    std::string baseline_error;
    if (baseline_ && (heldout || options_.timing)) {
      t = now_seconds();
      baseline_error = baseline_->prepare(shape);
      add_seconds("prepare", t);
    }
    Lane* baseline = baseline_ && baseline_error.empty() ? baseline_.get() : nullptr;
    std::string why_host;
    // The baseline takes part in the checked calls on held-out shapes only.
    std::unique_ptr<CheckedCalls> checked = make_checked_calls(
        task_, shape, *reference_, *candidate_, heldout ? baseline : nullptr, &why_host);
    sv.checked_on_device = checked->on_device();
    sv.checked_on_host_because = why_host;

    for (int s = 0; s < std::max(2, options_.seeds_per_shape); ++s) {
      uint64_t seed = stream_key(options_.seed, index * 64 + static_cast<uint64_t>(s));
      sv.seeds.push_back(seed);
      t = now_seconds();
      // Held-out shapes: the last seed may be a magnitude stress (task.heldout.magnitude).
      const bool stress = heldout && s > 0 && s == std::max(2, options_.seeds_per_shape) - 1 &&
                          task_.heldout.magnitude > 1;
      if (stress) sv.magnitude = task_.heldout.magnitude;
      checked->draw_inputs(seed, stress ? task_.heldout.magnitude : 1.0);
      add_seconds("inputs", t);

      t = now_seconds();
      CallOutcome ro = checked->call_reference(seed, timeout() * 10);
      add_seconds("reference", t);
      if (ro.kind != CallOutcome::Kind::kOk)
        return fail(sv, FailureClass::kReferenceError,
                    "the task's reference failed: " + ro.message);
      // On every seed the candidate is judged on, before its call: a candidate failing on some
      // input is a regression only if the baseline passes that same input (the magnitude
      // stress of the last seed included, where an fp32 starter may fail as well).
      if (heldout && baseline_) {
        t = now_seconds();
        const bool b =
            baseline != nullptr && checked->baseline_correct(seed ^ 0xBA5E11AEull, timeout());
        add_seconds("baseline_heldout", t);
        sv.baseline_correct = sv.baseline_correct.value_or(true) && b;
      }

      // The first seed runs twice on the same inputs: the determinism check.
      int runs = s == 0 ? 2 : 1;
      std::vector<OutputCheck> first_checks;
      for (int run = 0; run < runs; ++run) {
        t = now_seconds();
        CallOutcome o =
            checked->call_candidate(run, seed + static_cast<uint64_t>(run),
                                    stream_key(seed, 1000 + static_cast<uint64_t>(run)), timeout());
        add_seconds("solution_calls", t);
        if (o.kind != CallOutcome::Kind::kOk) return fail(sv, class_of(o), o.message);

        t = now_seconds();
        if (auto g = checked->guard_violation(run)) {
          const auto& spec = task_.tensors[g->slot];
          size_t elem = g->byte_distance / dtype_size(spec.dtype);
          std::string where =
              g->after ? "element " + std::to_string(elem) + " past the end of '" + spec.name + "'"
                       : "before the start of '" + spec.name + "' (" +
                             std::to_string(g->byte_distance) + " bytes)";
          return fail(sv, FailureClass::kOutOfBounds,
                      "the solution wrote " + where + " (guard bytes changed)");
        }
        if (auto changed = checked->changed_input(run))
          return fail(sv, FailureClass::kInputMutated,
                      "the solution changed its input '" + task_.tensors[*changed].name +
                          "'; inputs are read-only");
        if (run == 0) {
          for (size_t i = 0; i < task_.tensors.size(); ++i)
            if (task_.tensors[i].role == Role::kOutput)
              first_checks.push_back(checked->check_output(0, i));
        } else {
          for (size_t i = 0; i < task_.tensors.size(); ++i) {
            const auto& spec = task_.tensors[i];
            if (spec.role != Role::kOutput) continue;
            Difference d = checked->compare_runs(i);
            sv.bitwise_differences += d.bitwise;
            if (d.differing > 0 && d.differing == d.unwritten) {
              // Not noise: the repeat call left the output as it found it, relying on stale memory.
              OutputCheck c = checked->check_output(1, i);
              sv.outputs = {c};
              return fail(
                  sv, FailureClass::kWrongValues,
                  "a repeat call on the same inputs did not write its output (stale output): " +
                      describe_mismatch(c));
            }
            if (d.differing > 0) {
              sv.deterministic = false;
              const Mismatch& m = *d.first;
              return fail(sv, FailureClass::kNondeterministic,
                          "two calls on the same inputs disagree: " + spec.name +
                              coords_text(m.coords) + " was " + fmt_number(m.expected) + " then " +
                              fmt_number(m.got) + "; " + std::to_string(d.differing) +
                              " elements differ beyond the tolerance");
            }
          }
          sv.deterministic = true;
        }
        add_seconds("checks", t);
      }
      sv.outputs = first_checks;
      for (const auto& c : first_checks) {
        if (c.ok()) continue;
        FailureClass fc = c.non_finite > 0 ? FailureClass::kNanInf : FailureClass::kWrongValues;
        std::string lead =
            fc == FailureClass::kNanInf
                ? std::to_string(c.non_finite) + " NaN/Inf values where the reference is finite; "
                : "";
        return fail(sv, fc, lead + describe_mismatch(c));
      }
    }
    sv.correct = true;
    if (options_.timing) {
      if (!baseline_error.empty())
        v_.flags.push_back({"baseline_unavailable", shape.label(),
                            "the baseline failed to load: " + baseline_error, false});
      time_shape(sv, *checked, baseline, device_use);
    }
    return sv;
  }

  // Times the candidate against `base` (null: alone) on the inputs and verified outputs of the
  // shape's last seed, which `checked` holds.
  // `device_use` is the shape's shared hold on the device, let go here before the exclusive one.
  void time_shape(ShapeVerdict& sv, CheckedCalls& checked, Lane* base,
                  std::optional<DeviceLock>& device_use) {
    const Shape& shape = sv.shape;
    candidate_->arm_guards(stream_key(sv.seeds.back(), 7777));
    // The tensors of timed calls stay on the device where they can (judge/timed_data_on_device);
    // else they go through the lanes' shared regions.
    double t = now_seconds();
    std::string host_path_reason;
    std::unique_ptr<TimedDataOnDevice> on_device =
        checked.timed_data_on_device(*candidate_, base, &host_path_reason);
    // The host path needs them on the host (downloaded where the checked calls left them on the
    // device).
    static const std::vector<HostBuffer> kNone;
    const std::vector<HostBuffer>& inputs = on_device ? kNone : checked.host_inputs();
    std::vector<HostBuffer> verified(task_.tensors.size());
    if (!on_device)
      for (size_t i = 0; i < task_.tensors.size(); ++i)
        if (task_.tensors[i].role == Role::kOutput) verified[i] = checked.host_verified(i);
    if (!on_device) {
      if (base) base->write_inputs(inputs);
      candidate_->write_inputs(inputs);
    }
    add_seconds("timing_setup", t);

    // One judge times on a device at a time (judge/device_lock.hpp); the wait is not timing.
    t = now_seconds();
    device_use.reset();
    DeviceLock device_lock(backend_.device_key(), device_wait_note());
    add_seconds("device_wait", t);

    t = now_seconds();
    // Fresh input content for every timed call where the task is equivariant: each pair of calls
    // gets the inputs reordered anew (candidate and baseline the same ones), and the outputs are
    // put back in order before the check (judge/reordering). A graph replays one input.
    const bool fresh = !task_.equivariant.empty() && options_.graph_launches <= 1;
    std::vector<HostBuffer> current_inputs = inputs;  // what the candidate was given last
    Reordering pair_order;  // the inputs' order of the last pair, both sides' (empty: as drawn)
    uint64_t draws = 0;
    const uint64_t order_key = stream_key(sv.seeds.back(), 0xF8E5);
    std::vector<HostBuffer> in_order(task_.tensors.size());
    // Output `i` (at `got`, in `order`) in the reference's order.
    auto output_in_order = [&](const void* got, const Reordering& order, size_t i) -> const void* {
      if (order.empty()) return got;
      in_order[i].resize(checked.host_expected(i).size());
      reorder_tensor(task_, shape, order, i, static_cast<const std::byte*>(got), in_order[i].data(),
                     /*inverse=*/true);
      return in_order[i].data();
    };
    // An output that is not the verified one bit for bit: within tolerance of the reference?
    // "" when it is, else what is wrong.
    auto check_against_reference = [&](Lane& lane, size_t i, const void* got) -> std::string {
      const auto& spec = task_.tensors[i];
      OutputCheck c = check_output(spec, lane.dims()[i], output_in_order(got, pair_order, i),
                                   checked.host_expected(i).data(),
                                   task_.tolerance_for(spec, shape), lane.poison(i));
      return c.ok() ? "" : describe_mismatch(c);
    };
    bool baseline_checked = false;
    auto flag_baseline = [&](const std::string& wrong) {
      v_.flags.push_back(
          {"baseline_incorrect", shape.label(), "the baseline is wrong here: " + wrong, false});
    };
    // On the device: the candidate's whole buffer, as its call left it (the snapshot), against
    // the pair's expected image there; an output that differs comes to the host for the
    // tolerance check.
    std::optional<size_t> timed_input_changed;
    auto check_on_device = [&]() -> std::string {
      TimedDataOnDevice::Check c = on_device->check(*candidate_, /*whole=*/true);
      if (c.changed_input) {
        timed_input_changed = c.changed_input;
        return "the solution changed its input '" + task_.tensors[*c.changed_input].name + "'";
      }
      if (c.guards_changed) return "the solution wrote outside its output during timing";
      for (size_t i : c.outputs_differing) {
        HostBuffer got = on_device->download_output(*candidate_, i);
        if (std::string wrong = check_against_reference(*candidate_, i, got.data()); !wrong.empty())
          return wrong;
      }
      if (base && !baseline_checked) {
        baseline_checked = true;
        for (size_t i : on_device->check(*base, /*whole=*/false).outputs_differing) {
          HostBuffer got = on_device->download_output(*base, i);
          if (std::string wrong = check_against_reference(*base, i, got.data()); !wrong.empty())
            flag_baseline(wrong);
        }
      }
      return "";
    };
    // Every timed output is checked: equal bit for bit to the output already verified for these
    // inputs (fast), or else within tolerance of the reference itself.
    auto check = [&]() -> std::string {
      if (on_device) return check_on_device();
      for (size_t i = 0; i < task_.tensors.size(); ++i) {
        const auto& spec = task_.tensors[i];
        if (spec.role != Role::kOutput) continue;
        const void* got = output_in_order(candidate_->tensor(i), pair_order, i);
        if (parallel_equal(got, verified[i].data(), verified[i].size())) continue;
        OutputCheck c =
            check_output(spec, candidate_->dims()[i], got, checked.host_expected(i).data(),
                         task_.tolerance_for(spec, shape), candidate_->poison(i));
        if (!c.ok()) return describe_mismatch(c);
      }
      if (candidate_->check_guards()) return "the solution wrote outside its output during timing";
      if (base && !baseline_checked) {
        baseline_checked = true;
        for (size_t i = 0; i < task_.tensors.size(); ++i)
          if (task_.tensors[i].role == Role::kOutput)
            if (std::string wrong = check_against_reference(*base, i, base->tensor(i));
                !wrong.empty())
              flag_baseline(wrong);
      }
      return "";
    };
    TimingLoopOptions lo;
    lo.rule = options_.stopping;
    lo.cold_cache = options_.cold_cache;
    lo.timeout_s = timeout();
    lo.telemetry = [this] { return backend_.telemetry(); };
    lo.graph_launches = options_.graph_launches;
    lo.window_overhead_ns = window_overhead_.value_or(0);
    lo.order_seed = stream_key(sv.seeds.back(), 0x0DE5);
    lo.on_device = on_device != nullptr;
    if (on_device) {
      // Each pair runs on both sides' next placements (judge/placements.hpp), and both lanes
      // get the pair's inputs there before it.
      lo.before_pair = [&] {
        candidate_->next_placement();
        if (base) base->next_placement();
        if (fresh) pair_order = draw_reordering(task_, shape, stream_key(order_key, draws++));
        on_device->prepare_pair(pair_order);
      };
      lo.after_call = [&](Lane& lane) { on_device->snapshot(lane); };
    } else if (fresh) {
      // Both calls of a pair get the same new inputs, drawn before the pair: each side's call is
      // then preceded by the same host work (an upload), whichever comes first.
      lo.before_pair = [&] {
        pair_order = draw_reordering(task_, shape, stream_key(order_key, draws++));
        reorder_inputs(task_, shape, pair_order, inputs, current_inputs);
      };
      lo.before_call = [&](Lane& lane) { lane.write_inputs(current_inputs); };
    }
    TimingLoopResult r = run_timing_loop(*candidate_, base, lo, check);
    add_seconds("timing", t);

    if (r.candidate_failure) {
      sv.correct = false;
      sv.failure = class_of(*r.candidate_failure);
      sv.message = "during timing: " + r.candidate_failure->message;
      return;
    }
    if (timed_input_changed) {
      sv.correct = false;
      sv.failure = FailureClass::kInputMutated;
      sv.message = "during timing, the solution changed its input '" +
                   task_.tensors[*timed_input_changed].name + "'; inputs are read-only";
      return;
    }
    // Timed calls moved only outputs and guards: the inputs they left on the device must still
    // be the ones uploaded (a changed input is also the likeliest cause of a wrong timed output).
    // On the device they were compared after every pair.
    if (!on_device && !candidate_->download_all(timeout())) {
      sv.correct = false;
      sv.failure = FailureClass::kCrash;
      sv.message = "during timing: the runner died while the judge read the buffers back";
      return;
    }
    if (auto changed = on_device ? std::nullopt : candidate_->changed_input(current_inputs)) {
      sv.correct = false;
      sv.failure = FailureClass::kInputMutated;
      sv.message = "during timing, the solution changed its input '" +
                   task_.tensors[*changed].name + "'; inputs are read-only";
      return;
    }
    if (!r.check_failure.empty()) {
      sv.correct = false;
      sv.failure = FailureClass::kWrongValues;
      sv.message = "a timed call's output was wrong (it was right when checked before timing): " +
                   r.check_failure;
      return;
    }
    if (!r.baseline_failure.empty())
      v_.flags.push_back({"baseline_failed", shape.label(),
                          "the baseline failed while timed: " + r.baseline_failure, false});

    Timing tm;
    tm.candidate = summarize(r.candidate.runner_ns);
    tm.host_median_ns = summarize(r.candidate.host_ns).median;
    tm.stop_reason = r.stop_reason;
    tm.pairs = r.pairs;
    tm.baseline_first = r.baseline_first;  // 0 without a baseline
    tm.cold_cache = options_.cold_cache;
    tm.graph_launches = options_.graph_launches;
    tm.window_overhead_ns = window_overhead_;
    if (r.candidate.work_watched > 0) tm.off_stream_work = r.candidate.off_stream_work;
    tm.checked_on_device = on_device != nullptr;
    tm.checked_on_host_because = host_path_reason;
    tm.placements = on_device ? candidate_->placements() : 1;
    tm.runners = candidate_->runners();
    tm.candidate_runner_medians_ns = r.candidate.median_per_runner(tm.runners);
    if (base) {
      tm.baseline_runners = base->runners();
      tm.baseline_runner_medians_ns = r.baseline.median_per_runner(tm.baseline_runners);
    }
    for (const auto& [side, lane] :
         {std::pair{"candidate", candidate_.get()}, std::pair{"baseline", base}})
      if (lane != nullptr && !lane->fewer_runners_because().empty())
        tm.fewer_runners_because += (tm.fewer_runners_because.empty() ? "" : "; ") +
                                    std::string(side) + ": " + lane->fewer_runners_because();
    if (fresh) {
      tm.inputs_per_call = "reordered along";
      for (size_t k = 0; k < task_.equivariant.size(); ++k)
        tm.inputs_per_call += (k ? ", " : " ") + task_.equivariant[k];
    }
    // In a graph replay only the first call starts cold; the roofline cannot assume any of them
    // did.
    const bool roofline_cold = options_.cold_cache && options_.graph_launches == 0;
    bool baseline_ok = !r.baseline.runner_ns.empty() && r.baseline_failure.empty();
    for (const auto& f : v_.flags)
      baseline_ok = baseline_ok && !(f.name == "baseline_incorrect" && f.shape == shape.label());
    if (!r.baseline.runner_ns.empty()) tm.baseline = summarize(r.baseline.runner_ns);
    if (baseline_ok && tm.candidate.median > 0)
      tm.speedup = tm.baseline->median / tm.candidate.median;
    if (auto name = v_.device.find("name"); name != v_.device.end())
      tm.runner_offset_sd_ns = runner_offset_sd_ns(name->second);
    const Bindings b = task_.bind(shape);
    const double flops = task_.flops.eval(b), bytes = task_.bytes.eval(b);
    double secs = tm.candidate.median * 1e-9;
    if (secs > 0) {
      tm.gflops = flops / secs * 1e-9;
      tm.gbytes_per_s = bytes / secs * 1e-9;
      if (auto peaks = backend_.peaks()) {
        Roofline roof = compute_roofline(flops, bytes, compute_dtype(), *peaks, tm.candidate.median,
                                         roofline_cold);
        tm.roofline_fraction = roof.fraction;
        tm.roofline_floor_ns = roof.floor_ns;
        if (tm.baseline && tm.baseline->median > 0)
          tm.baseline_roofline_fraction = compute_roofline(flops, bytes, compute_dtype(), *peaks,
                                                           tm.baseline->median, roofline_cold)
                                              .fraction;
        if (roof.impossible)
          v_.flags.push_back({"impossible_speed", shape.label(),
                              "a median of " + fmt_number(tm.candidate.median) +
                                  " ns is below what " + peaks->name +
                                  " allows for this shape's FLOPs and bytes at any precision (" +
                                  fmt_number(roof.impossible_below_ns / 0.9) + " ns)",
                              true});
      }
    }
    // The runner's clock is in the solution's process: cross-check it with the CPU time the
    // kernel charged to that process's threads (where the runner's time is host wall time).
    TimerCheck tc;
    if (backend_.times_on_host_clock())
      tc = check_reported_times(r.candidate.cpu, r.candidate_threads,
                                static_cast<int>(std::thread::hardware_concurrency()));
    if (!tc.plausible) {
      std::vector<double> process, caller;
      for (const CallCpu& c : r.candidate.cpu) {
        if (c.process_ns > 0) process.push_back(c.process_ns);
        if (c.caller_ns >= 0) caller.push_back(c.caller_ns);
      }
      std::string caller_part = caller.empty() ? ""
                                               : " (" + fmt_number(summarize(caller).median) +
                                                     " ns on the thread that called it)";
      v_.flags.push_back({"timer_mismatch", shape.label(),
                          "the runner reported a median of " + fmt_number(tm.candidate.median) +
                              " ns, but its process used " + fmt_number(summarize(process).median) +
                              " ns of CPU time per call" + caller_part + " with " +
                              std::to_string(r.candidate_threads) +
                              " thread(s) left after it, so a call took at least " +
                              fmt_number(tc.lower_bound_ns) + " ns",
                          true});
    }
    // The runner's own check of its timing path (backends/relocation_seal.hpp): what the
    // solution changed of it makes every time it reported suspect.
    if (r.candidate.timer_tampered > 0) {
      const size_t calls = r.candidate.runner_ns.size() + static_cast<size_t>(r.candidate.discarded);
      v_.flags.push_back({"timer_mismatch", shape.label(),
                          r.candidate.timer_tampered_first + " (seen after " +
                              std::to_string(r.candidate.timer_tampered) + " of " +
                              std::to_string(calls) + " timed calls)",
                          true});
    }
    // Work the events did not see (another stream, a host thread) still had to finish before
    // the device was idle: much more time until then than the events measured is flagged.
    OutsideStreamEvidence outside;
    outside.window_median_ns = tm.candidate.median;
    outside.all_work_median_ns = summarize(r.candidate.all_work_ns).median;
    outside.off_stream_work = r.candidate.off_stream_work;
    outside.first_off_stream = r.candidate.off_stream_first;
    if (std::string why = work_outside_stream(outside); !why.empty())
      v_.flags.push_back({"work_outside_stream", shape.label(), why, true});
    // The judge's own count of the runner's threads: a thread that was not there after the
    // warm-up call and runs right after a timed call returned (deferred work, a spinner) was left
    // running by that call. Threads a library starts at its first use were there before.
    tm.threads_after_warmup = r.threads_after_warmup;
    tm.threads_max_timed = r.threads_max_timed;
    tm.threads_after_timing = r.threads_after_timing;
    tm.threads_left_running = r.threads_left_running;
    if (r.threads_left_running > 0) {
      v_.flags.push_back(
          {"host_thread", shape.label(),
           std::to_string(r.threads_left_running) +
               " thread(s) started by timed calls were still running after the call returned "
               "(the runner had " +
               std::to_string(r.threads_after_warmup) +
               " thread(s) after the warm-up call, at most " + std::to_string(r.threads_max_timed) +
               " right after a timed call, " + std::to_string(r.threads_after_timing) +
               " after the last one): work the timer does not see; finish the work and join "
               "every thread you start before the entry point returns",
           true});
    }
    record_telemetry(tm, r, shape.label());
    sv.timing = tm;
  }

  // The device's state during the timed calls: per shape, over the whole verdict, and the
  // `throttled` flag when most of one side's calls ran on a slowed-down device.
  void record_telemetry(Timing& tm, const TimingLoopResult& r, const std::string& label) {
    const Samples& c = r.candidate;
    tm.telemetry = summarize_telemetry(c.telemetry, c.reasons_seen, c.slowdown, c.discarded);
    tm.baseline_telemetry = summarize_telemetry(r.baseline.telemetry, r.baseline.reasons_seen,
                                                r.baseline.slowdown, r.baseline.discarded);
    telemetry_.insert(telemetry_.end(), c.telemetry.begin(), c.telemetry.end());
    reasons_seen_ |= c.reasons_seen;
    slowdown_ += c.slowdown;
    discarded_ += c.discarded;
    v_.telemetry = summarize_telemetry(telemetry_, reasons_seen_, slowdown_, discarded_);
    std::string sides;
    uint64_t reasons = 0;
    for (const auto& [side, samples] :
         {std::pair<const char*, const Samples*>{"candidate", &c}, {"baseline", &r.baseline}}) {
      if (!samples->throttled) continue;
      sides += std::string(sides.empty() ? "" : " and ") + side + " (" +
               std::to_string(samples->slowdown) + " of " +
               std::to_string(samples->runner_ns.size()) + " calls)";
      reasons |= samples->reasons_seen & throttle::kSlowdown;
    }
    if (sides.empty()) return;
    std::string names;
    for (const auto& n : throttle_reason_names(reasons)) names += (names.empty() ? "" : ", ") + n;
    v_.flags.push_back(
        {"throttled", label,
         "the device slowed itself down (" + names + ") during most timed calls of the " + sides +
             ": the times are of a slowed device; they were kept, since candidate and baseline "
             "alternated under the same conditions",
         false});
  }

  // The precision the task computes in, for its roofline: that of its first input.
  DType compute_dtype() const {
    for (const auto& t : task_.tensors)
      if (t.role == Role::kInput) return t.dtype;
    return task_.tensors.front().dtype;
  }

  const Task& task_;
  const Backend& backend_;
  const JudgeOptions& options_;
  Verdict& v_;
  const std::optional<double> window_overhead_;
  const int placements_;
  const int timed_runners_;  // 1 where nothing is timed
  RunnerPool own_runners_;   // where options_.runners is null; first: it outlives its lanes
  std::unique_ptr<DevicePlane> plane_;  // before the lanes: they map its buffers
  std::unique_ptr<Lane> reference_;
  std::unique_ptr<Lane> candidate_;
  std::unique_ptr<Lane> baseline_;
  std::vector<DeviceTelemetry> telemetry_;  // every kept timed call of the candidate, all shapes
  uint64_t reasons_seen_ = 0;
  int slowdown_ = 0;
  int discarded_ = 0;
};

}  // namespace

Verdict judge_solution(const Task& task, const Backend& backend, const std::string& solution_path,
                       const std::string& source, const JudgeOptions& options) {
  Verdict v;
  v.task = task.id;
  v.backend = backend.name();
  v.solution_path = solution_path;
  v.solution_sha256 = sha256_hex(source);
  v.baseline_path = options.baseline.empty() ? task.baseline.string() : options.baseline.string();
  v.device = backend.device();
  v.seed = options.seed;
  v.seed_was_given = options.seed_was_given;
  // Read before any work: a malformed ARENA_WINDOW_OVERHEAD_NS stops the eval here, not halfway.
  const auto name = v.device.find("name");
  std::optional<double> overhead =
      window_overhead_to_apply(name == v.device.end() ? std::string() : name->second);
  // Graph replays and host-clock times keep their windows whole (window_overhead.hpp).
  if (options.graph_launches > 0 || backend.times_on_host_clock()) overhead.reset();
  const int placements = wanted_placements();  // as early, for the same reason
  const int timed_runners = wanted_timed_runners(backend.timed_runners());
  double t0 = now_seconds();
  Judge judge(task, backend, options, v, overhead, placements, timed_runners);
  try {
    judge.run(source);
  } catch (const InternalError& e) {
    v.internal_error = e.what();  // keep what was judged so far
  }
  judge.stop_runners();
  explain_failures(task, v);
  v.seconds["total"] = now_seconds() - t0;
  return v;
}

}  // namespace arena
