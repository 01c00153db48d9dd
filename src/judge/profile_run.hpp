// `arena-tool profile`: the solution once under the backend's profiler (Nsight Compute on CUDA)
// on the task's smallest visible shape. A fresh runner started through the profiler gets fresh
// inputs and poisoned outputs, makes one call with its stream not held and the caches as the
// profiler leaves them (ncu flushes them before each kernel), then quits; the judge reads the
// profiler's report. Nothing here is a verdict: the outputs are not checked, and the figures are
// the profiler's, for the agent to read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/task.hpp"
#include "judge/backend.hpp"
#include "judge/ncu_report.hpp"

namespace arena {

struct ProfileResult {
  Shape shape;
  bool ok = false;
  std::string error;  // why not ok: the runner did not start, the call failed, no kernel ran...
  std::vector<ProfiledKernel> kernels;
  std::string tool_output;  // the profiler's report as it wrote it (cut), for a failed profile
  double seconds = 0;
};

// Profiles `library` (the compiled solution). Throws InputError when the backend has no usable
// profiler (Backend::profiler_unavailable). `timeout_s` bounds the runner's start, the call
// (which the profiler replays once per group of metrics) and its quit.
ProfileResult run_profile(const Task& task, const Backend& backend,
                          const std::filesystem::path& library, uint64_t seed, double timeout_s);

nlohmann::json profile_to_json(const ProfileResult& p);

}  // namespace arena
