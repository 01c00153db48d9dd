// What the judge needs from a backend (cpu, cuda): compile a solution, start a runner for it,
// and describe the device. Everything else in the judge is backend-neutral.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/task.hpp"
#include "judge/compile_cache.hpp"
#include "judge/device_telemetry.hpp"
#include "judge/roofline.hpp"
#include "judge/runner_client.hpp"

namespace arena {

struct BackendOptions {
  std::filesystem::path cache_dir;   // compile cache root
  std::filesystem::path runner_dir;  // where the runner executables are
  int device = 0;                    // which GPU, for device backends
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  // Compiles one source for `task`, linked against `libraries` (a solution gets the task's
  // `libraries`; the task's expert also its `expert_libraries`).
  virtual CompileResult compile(const Task& task, const std::string& source,
                                const std::vector<std::string>& libraries) const = 0;
  // How to start a runner for a compiled library, sized for `task`'s largest shape of `bytes`.
  virtual RunnerSpec runner(const std::filesystem::path& library, int64_t region_bytes) const = 0;
  // The runner of a lane that loads only the task's own code and is never timed (the
  // reference): `plain` with what the backend can spare such a process. The CUDA backend gives
  // its context one hardware queue, which comes up faster (CudaBackend::trusted_runner).
  virtual RunnerSpec trusted_runner(RunnerSpec plain) const { return plain; }
  // Facts about the device for the verdict: name, cores, cache sizes, compiler...
  virtual std::map<std::string, std::string> device() const = 0;
  // Names the device for the device lock (judge/device_lock.hpp): two judges with the same key
  // would time on the same hardware. The CPU backend: the host; CUDA: the GPU's PCI bus id.
  virtual std::string device_key() const { return name(); }
  // Whether the runner's reported time is the host's wall clock around the call (CPU), which the
  // CPU time the kernel charged to the runner's threads bounds from below (timer_check.hpp).
  // CUDA's is the device's event time, which host CPU time does not bound.
  virtual bool times_on_host_clock() const { return false; }
  // How many runner processes each timed side is spread over by default (judge/timed_runners.hpp;
  // ARENA_TIMED_RUNNERS overrides).
  virtual int timed_runners() const { return 1; }
  // Why this backend cannot run solutions here (no device visible...); "" when it can.
  // Compiling works either way.
  virtual std::string unavailable() const { return ""; }
  // Peak rates for the roofline; nullopt where the device is not in the table.
  virtual std::optional<DevicePeaks> peaks() const { return std::nullopt; }
  // Why `--sanitize` cannot run here (the backend has no sanitizer, or it is not installed);
  // "" when it can.
  virtual std::string sanitizer_unavailable() const {
    return "the " + name() + " backend has no sanitizer (--sanitize runs compute-sanitizer on CUDA solutions)";
  }
  // `plain` (a runner() spec) wrapped to run under the sanitizer's `tool`, writing its report
  // to `log_file`. Only where sanitizer_unavailable() is "".
  virtual RunnerSpec sanitizer_runner(const RunnerSpec& plain, const std::string& /*tool*/,
                                      const std::filesystem::path& /*log_file*/) const {
    return plain;
  }
  // Why `arena-tool profile` cannot run here (the backend has no profiler, or it is not
  // installed); "" when it can.
  virtual std::string profiler_unavailable() const {
    return "the " + name() + " backend has no profiler (profile runs Nsight Compute on CUDA solutions)";
  }
  // `plain` (a runner() spec) wrapped to run under the profiler, writing its CSV report of the
  // solution's kernels to `report_file`. Only where profiler_unavailable() is "".
  virtual RunnerSpec profiler_runner(const RunnerSpec& plain,
                                     const std::filesystem::path& /*report_file*/) const {
    return plain;
  }
  // The judge's trusted device helper (judge/device_plane.hpp), where the backend has one: the
  // timing loop then lays out and checks its tensors on the device. nullopt on the CPU.
  virtual std::optional<RunnerSpec> device_helper() const { return std::nullopt; }
  // The device's clocks, temperature, power and throttle reasons now; nullopt where the backend
  // cannot read them (the CPU; a GPU without NVML), and telemetry_unavailable() says why.
  virtual std::optional<DeviceTelemetry> telemetry() const { return std::nullopt; }
  virtual std::string telemetry_unavailable() const { return "the " + name() + " backend reads no device telemetry"; }
  // Measures the device's real copy bandwidth and GEMM rates (arena device --calibrate), as
  // key=value facts; an "error" entry when it cannot.
  virtual std::map<std::string, std::string> calibrate() const {
    return {{"error", "calibration is not available for " + name() + " devices"}};
  }
};

// Builds a solution through the compile cache; a failed build's log is led by a hint when the
// failure is one of the classic signature mistakes (`declaration` is what the task expects).
CompileResult build_solution(const CompileJob& job, const std::filesystem::path& cache_dir, const Task& task,
                             const std::string& declaration);

// Compiles one of the task's own files (reference, baseline) and returns the library. A task
// file that does not compile is the task's fault: InputError naming the file and `role`.
std::filesystem::path compile_task_file(const Task& task, const Backend& backend,
                                        const std::filesystem::path& file, const std::string& role,
                                        const std::vector<std::string>& libraries);

// Symbols the link could not resolve from the libraries a solution may use (the entry point
// itself aside): a call into a library the task does not allow.
std::vector<std::string> forbidden_symbols(const Task& task, const std::string& log);

// When a compile log shows the classic signature mistakes, a sentence that says what to fix.
std::string compile_hint(const Task& task, const std::string& log, const std::string& declaration);

}  // namespace arena
