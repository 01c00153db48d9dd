// --sanitize: the solution once under each compute-sanitizer tool (memcheck, racecheck,
// initcheck, synccheck) on the task's smallest visible shape. Each tool gets a fresh runner
// started through the backend's sanitizer, fresh inputs and poisoned outputs, one call, then a
// clean quit so the tool writes its report; the judge reads the report and the tool's exit code.
//
// What the tools see besides the solution's kernels is the runner's own work: a cudaMemcpy of
// the whole buffer region to the device before the call and back after it. The region is
// uploaded in full (inputs, poisoned outputs, guard zones), so initcheck finds nothing
// uninitialized there and memcheck nothing out of bounds; API errors are not reported, so an
// optional call of the runner's that fails (pinning the region) is not blamed on the solution.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/task.hpp"
#include "judge/backend.hpp"
#include "judge/verdict.hpp"

namespace arena {

// The tools, in the order they run.
const std::vector<std::string>& sanitizer_tools();

// Runs every tool on `library` (the compiled solution). A tool is ok when its runner started,
// the call returned, the runner quit with exit code 0 and the report's summary counts no error;
// anything else is not ok, with the reason leading its report. `timeout_s` bounds each call and
// each quit. Throws InputError when the backend has no usable sanitizer.
SanitizerVerdict run_sanitizer(const Task& task, const Backend& backend,
                               const std::filesystem::path& library, uint64_t seed,
                               double timeout_s,
                               const std::function<void(const std::string&)>& progress = {});

}  // namespace arena
