// The CUDA backend: solutions in CUDA C++, compiled by nvcc for the device's architecture
// (sm_90a on Hopper) into a shared library that arena-runner-cuda loads. The judge itself needs
// no GPU code: the runner moves the shared region to the device and back.
#pragma once

#include <memory>

#include "backends/cuda/nvml.hpp"
#include "judge/backend.hpp"

namespace arena {

class CudaBackend : public Backend {
 public:
  CudaBackend(BackendOptions options, int device);
  std::string name() const override { return "cuda"; }
  CompileResult compile(const Task& task, const std::string& source,
                        const std::vector<std::string>& libraries) const override;
  RunnerSpec runner(const std::filesystem::path& library, int64_t region_bytes) const override;
  // `plain` whose CUDA context has one hardware queue (CUDA_DEVICE_MAX_CONNECTIONS=1, where the
  // driver's default is 8): a context with one queue comes up in a fraction of the time, and the
  // driver creates contexts one at a time, so every runner of the eval starts sooner. Only for
  // code that is never timed and needs no two streams at once (the task's reference; the device
  // helper too): a solution's side streams would queue behind each other. $ARENA_TRUSTED_CONNECTIONS
  // (1 to 32; 0: the driver's default) overrides (docs/timing.md, "Runner start").
  RunnerSpec trusted_runner(RunnerSpec plain) const override;
  // arena-device-helper (beside the runners) on the same device; $ARENA_DEVICE_PLANE=0 turns it
  // off (the timed data then crosses to the host around every call, as before it existed).
  std::optional<RunnerSpec> device_helper() const override;
  std::map<std::string, std::string> device() const override { return info_; }
  // "cuda-" and the PCI bus id (the same GPU whatever CUDA_VISIBLE_DEVICES numbers it), else the
  // device number.
  std::string device_key() const override;
  std::string unavailable() const override;
  // Two: the runner offset (judge/runner_offset.hpp) is measured on every GPU so far, and its
  // part of a short kernel's spread shrinks by sqrt 2 (docs/timing.md, "Timed runners").
  int timed_runners() const override { return 2; }
  std::optional<DevicePeaks> peaks() const override { return find_device_peaks(info_.count("name") ? info_.at("name") : ""); }
  // Through NVML, on the device with the runner's PCI bus id.
  std::optional<DeviceTelemetry> telemetry() const override;
  std::string telemetry_unavailable() const override;
  // Runs arena-calibrate (beside the runners) on the device.
  std::map<std::string, std::string> calibrate() const override;
  // compute-sanitizer: $ARENA_COMPUTE_SANITIZER, else on PATH, else /usr/local/cuda/bin.
  std::string sanitizer_unavailable() const override;
  // The runner under compute-sanitizer, its stream not held (--no-hold: instrumented launches
  // may wait for the device, which the hold kernel would keep busy).
  RunnerSpec sanitizer_runner(const RunnerSpec& plain, const std::string& tool,
                              const std::filesystem::path& log_file) const override;
  // Nsight Compute: $ARENA_NCU, else ncu on PATH, else /usr/local/cuda/bin.
  std::string profiler_unavailable() const override;
  // The runner under ncu (judge/ncu_report.hpp's arguments), its stream not held.
  RunnerSpec profiler_runner(const RunnerSpec& plain, const std::filesystem::path& report_file) const override;

  // "sm_90a" for compute capability 9.0, "sm_XY" otherwise; $ARENA_CUDA_ARCH overrides; sm_90a
  // when no device is visible (compile-only use, as in CI).
  std::string arch() const { return arch_; }

 private:
  BackendOptions options_;
  int device_;
  std::string nvcc_;
  std::string toolchain_;
  std::string arch_;
  std::map<std::string, std::string> info_;
  std::vector<int> runner_cpus_;  // ARENA_RUNNER_CPUS: every runner's CPUs (empty: any)
  // CUDA_DEVICE_MAX_CONNECTIONS=N for the trusted runner and the helper; "" for the driver's
  // default (ARENA_TRUSTED_CONNECTIONS, read once when the backend comes up).
  std::string trusted_environment_;
  std::unique_ptr<NvmlDevice> nvml_;  // null when no device is usable
};

// The device's facts from `arena-runner-cuda --info`; an "error" entry when none is usable.
// The device's facts from `arena-runner-cuda --info`, kept under `cache_dir` (when given) for
// the same runner binary, device, CUDA_VISIBLE_DEVICES and boot.
std::map<std::string, std::string> query_cuda_device(const std::filesystem::path& runner_dir, int device,
                                                     const std::filesystem::path& cache_dir = {});

}  // namespace arena
