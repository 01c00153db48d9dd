// The verdict: everything the judge found about one solution, as docs/verdict.md documents.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/task.hpp"
#include "judge/checker.hpp"
#include "judge/device_telemetry.hpp"
#include "judge/sample_stats.hpp"
#include "judge/source_scan.hpp"

namespace arena {

enum class FailureClass {
  kNone,
  kCompileError,
  kLaunchError,
  kCrash,
  kTimeout,
  kOom,
  kWrongValues,
  kNanInf,
  kInputMutated,
  kOutOfBounds,
  kNondeterministic,
  kForbiddenLibrary,  // the solution links against a library the task does not allow
  kReferenceError,    // the task's reference failed: a harness problem, not the solution's
  kSanitizer,  // --sanitize: compute-sanitizer found an error (or could not vouch for the call)
  kSandboxViolation,  // the solution made a system call the runner's seccomp profile denies
};

std::string_view failure_class_name(FailureClass c);

struct Timing {
  SampleSummary candidate;  // nanoseconds per call
  std::optional<SampleSummary> baseline;
  double host_median_ns = 0;      // the judge's own clock around the candidate's calls
  std::string stop_reason;        // converged | max_samples | max_seconds
  int pairs = 0;                  // timed pairs of calls (with a baseline: one call each)
  int baseline_first = 0;         // ... in which the baseline was called first (drawn at random)
  std::optional<double> speedup;  // baseline median / candidate median
  // The device's measured runner offset (judge/runner_offset.hpp), ns, of one runner; nullopt
  // where unmeasured.
  std::optional<double> runner_offset_sd_ns;
  // The runners each side's timed calls were spread over, a pair on each in turn
  // (judge/timed_runners.hpp), and each runner's median (ns, in runner order): the offset
  // between them, seen.
  int runners = 1;
  int baseline_runners = 1;
  std::vector<double> candidate_runner_medians_ns;
  std::vector<double> baseline_runner_medians_ns;
  // Why a side has fewer runners than the eval asked for (a runner that could not start, or one
  // after the first that ran out of memory at its warm-up: Lane::fewer_runners_because, each
  // side's prefixed "candidate: " / "baseline: "), "" when both have them all.
  std::string fewer_runners_because;
  // The event window's fixed part (judge/window_overhead.hpp), ns, taken off every sample of
  // both sides (the medians, CIs and speedup are of what is left); nullopt: samples are whole
  // windows (no measured row, --graph, or a host-clock backend).
  std::optional<double> window_overhead_ns;
  // CUDA: launches, copies and memsets the candidate's timed calls enqueued on streams not forked
  // from the given one inside the call (backends/cuda/stream_watch.hpp: they can start before the
  // window opens); nullopt where no timed call was watched (the CPU, --graph, or CUPTI
  // unavailable).
  std::optional<uint64_t> off_stream_work;
  // How uncertain the speedup is (95 %), on a log scale: the speedup lies within
  // [speedup * e^-u, speedup * e^u]. The two medians' log CI half-widths and the runner offset's
  // part combined in quadrature; for small u it reads as a relative half-width (0.01 = +-1 %).
  std::optional<double> speedup_uncertainty() const;
  // Its two parts (0 without a baseline): the medians' CIs, and the runner offset's (0 without
  // a measured row). The same runner processes time every shape of an eval, so the second is
  // not independent from shape to shape (Verdict::geomean_speedup_uncertainty).
  double medians_part() const;
  double runner_offset_part() const;
  double gflops = 0;                        // from the task's flops expression
  double gbytes_per_s = 0;                  // from the task's bytes expression
  std::optional<double> roofline_fraction;  // needs a device peak table
  std::optional<double> roofline_floor_ns;  // the least time at the task's precision
  std::optional<double> baseline_roofline_fraction;
  bool cold_cache = true;
  int graph_launches = 0;  // --graph: calls per sample, replayed as one CUDA graph; 0 = plain calls
  // What each timed call got as inputs: "reordered along rows, M" (fresh content per call, the
  // task's equivariant params) or "repeated" (the same inputs every call).
  std::string inputs_per_call = "repeated";
  // The places in device memory each side's timed calls rotated through, a pair on each in turn
  // (judge/placements.hpp); 1 where the tensors went through the host.
  int placements = 1;
  // Whether the timed calls' inputs were laid out and their outputs checked on the device
  // (judge/timed_data_on_device.hpp), else on the host, and why not on the device.
  bool checked_on_device = false;
  std::string checked_on_host_because;
  // The device during the timed calls (nullopt where it reports nothing, as on the CPU).
  std::optional<TelemetrySummary> telemetry;           // the candidate's calls
  std::optional<TelemetrySummary> baseline_telemetry;  // the baseline's
  // The candidate runner's running threads, counted by the judge from /proc: after the warm-up
  // call, the most right after any timed call, after the last one (0: not counted); and those
  // not there after the warm-up that ran right after a timed call (the host_thread flag).
  int threads_after_warmup = 0;
  int threads_max_timed = 0;
  int threads_after_timing = 0;
  int threads_left_running = 0;
};

struct ShapeVerdict {
  Shape shape;
  std::string set;       // "visible" | "heldout" | "custom" (--shape)
  std::string category;  // held-out: the generator's category (edge, scale_up, largest, ...)
  bool correct = false;
  FailureClass failure = FailureClass::kNone;
  std::string message;  // one readable sentence or paragraph about the failure
  std::vector<uint64_t> seeds;
  std::vector<OutputCheck> outputs;  // the check that decided the shape
  std::optional<bool> deterministic;
  int64_t bitwise_differences = 0;  // between two runs on the same inputs, within tolerance
  // Whether the checked calls' tensors were laid out and checked on the device
  // (judge/checked_calls.hpp), else on the host, and why not on the device.
  bool checked_on_device = false;
  std::string checked_on_host_because;
  std::optional<Timing> timing;
  // Held-out shapes: whether the baseline is correct here too (its quadrant with the candidate):
  // on every input the candidate was judged on (all its seeds, or up to the one it failed on).
  std::optional<bool> baseline_correct;
  double magnitude = 1;  // > 1: its last seed's float inputs were this many times larger (stress)
  // Why it failed, with evidence, when it did (src/judge/failure_explanation): a kind
  // (boundary_tiles, interior, everywhere, launch_resources, index_overflow, size_threshold,
  // unstable_reduction, performance_collapse, ...) and a sentence naming the evidence.
  std::string explanation_kind;
  std::string explanation;
};

// Held-out generalization over one verdict: the candidate against the baseline, shape by shape.
struct Generalization {
  int both_pass = 0, regression = 0, both_fail = 0, improvement = 0;  // baseline x candidate
  std::optional<double> conditional_correctness;  // candidate correct where the baseline is
  std::optional<double> speedup_retention;        // held-out geomean speedup / visible geomean
  int baseline_unknown = 0;                       // held-out shapes the baseline was not judged on
};

struct Flag {
  std::string name;   // e.g. "timer_mismatch", "baseline_incorrect"
  std::string shape;  // the shape's label, empty for the whole verdict
  std::string reason;
  bool voids_speedup = false;
};

// --sanitize: one compute-sanitizer tool's run of the solution on one shape.
struct SanitizerToolResult {
  std::string tool;              // memcheck | racecheck | initcheck | synccheck
  bool ok = false;               // ran to the end, called once, no error
  int64_t errors = 0;            // from the tool's summary
  std::optional<int> exit_code;  // compute-sanitizer's; nullopt when killed (timeout)
  std::string report;            // the tool's report (cut to a few KB), led by what went wrong
};

struct SanitizerVerdict {
  Shape shape;  // the smallest visible shape
  std::vector<SanitizerToolResult> tools;
  bool ok() const;
};

// Whether the candidate's runner ran under its seccomp profile (src/backends/runner_sandbox.hpp).
struct SandboxInfo {
  bool seccomp = false;
  std::string why_off;  // ARENA_NO_SANDBOX=1, or the runner could not install it
  bool reads_confined =
      false;  // Landlock confined its file reads (src/backends/runner_landlock.hpp)
  std::string reads_why_open;  // with seccomp on and reads not confined: why
};

struct CompileInfo {
  bool ok = false;
  bool cached = false;
  double seconds = 0;
  std::string key;
  std::string command;
  std::string log;
  std::vector<std::string> forbidden_symbols;  // unresolved calls into disallowed libraries
};

struct Verdict {
  std::string task;
  std::string backend;
  std::string solution_path;
  std::string solution_sha256;
  std::string baseline_path;
  std::map<std::string, std::string> device;
  uint64_t seed = 0;
  bool seed_was_given = false;
  CompileInfo compile;
  std::vector<ShapeVerdict> shapes;
  std::vector<Flag> flags;
  std::vector<SourceWarning> warnings;  // the static scan of the source: information, not a verdict
  std::map<std::string, double> seconds;      // where the judge's time went
  std::optional<TelemetrySummary> telemetry;  // the device over every timed call of the candidate
  std::optional<SanitizerVerdict> sanitizer;  // --sanitize
  std::optional<SandboxInfo> sandbox;         // the candidate's runner; nullopt when none ran
  std::string internal_error;                 // set when the harness itself failed midway

  bool compiled() const { return compile.ok; }
  // Correct on every shape of a set; nullopt when the set was not judged.
  std::optional<bool> correct_on(const std::string& set) const;
  // Geometric mean of the counted speedups of a set; nullopt when none was measured.
  std::optional<double> geomean_speedup(const std::string& set) const;
  // How uncertain that geomean is, on the same log scale (the geomean is the mean of the logs):
  // the shapes' median CIs are independent and combine as sqrt(sum of squares) / n; the runner
  // offsets' parts are not (the same runner processes time every shape, and a process's offset
  // moves all its medians alike), so they add up as they are, sum / n; the two in quadrature.
  std::optional<double> geomean_speedup_uncertainty(const std::string& set) const;
  // The first failure, in shape order; kCompileError when it did not compile; kSanitizer when
  // every shape passed but the sanitizer run did not.
  FailureClass failure_class() const;
  bool speedup_voided() const;
  // Over the held-out shapes; nullopt when none was judged.
  std::optional<Generalization> generalization() const;
  // 0 judged and correct, 1 judged and not correct (or a flag voids it), 3 internal error.
  int exit_code() const;
};

}  // namespace arena
