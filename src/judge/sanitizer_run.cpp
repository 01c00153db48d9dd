#include "judge/sanitizer_run.hpp"

#include <cstdio>

#include "core/error.hpp"
#include "core/subprocess.hpp"
#include "core/temp_dir.hpp"
#include "judge/input_generator.hpp"
#include "judge/lane.hpp"
#include "judge/random.hpp"
#include "judge/sanitizer_log.hpp"
#include "judge/shape_selection.hpp"

namespace arena {
namespace {

std::string read_if_there(const std::filesystem::path& p) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(p, ec)) return "";
  return read_file(p);
}

SanitizerToolResult run_tool(const Task& task, const Backend& backend,
                             const std::filesystem::path& library, const Shape& shape,
                             const std::string& tool, uint64_t seed, double timeout_s,
                             const std::filesystem::path& dir) {
  SanitizerToolResult r;
  r.tool = tool;
  std::filesystem::path log_file = dir / (tool + ".log");
  int64_t bytes = region_bytes(task, shape);

  std::string why;  // what went wrong besides the tool's findings
  std::optional<int> exit_code;
  {
    Lane lane(backend, task, library, bytes);
    lane.use_runner_spec(backend.sanitizer_runner(backend.runner(library, bytes), tool, log_file));
    std::string err = lane.prepare(shape);
    if (!err.empty()) {
      why = "the runner did not start under compute-sanitizer: " + err;
    } else {
      lane.write_inputs(generate_inputs(task, shape, seed));
      lane.poison_outputs(seed);
      lane.arm_guards(stream_key(seed, 1000));
      CallOutcome o = lane.call(timeout_s);
      if (o.kind != CallOutcome::Kind::kOk)
        why = "the call failed under compute-sanitizer: " + o.message;
      exit_code = lane.quit(timeout_s);
      if (!exit_code && why.empty())
        why = "compute-sanitizer did not exit normally within " +
              std::to_string(static_cast<int>(timeout_s)) +
              " s of the runner being asked to quit (a signal, or a hang)";
    }
  }  // the lane's runner, if still there, is gone here

  std::string text = read_if_there(log_file);
  SanitizerLog log = parse_sanitizer_log(text);
  r.errors = log.errors;
  r.exit_code = exit_code;
  if (why.empty()) {
    if (!log.summary_found)
      why = text.empty() ? "compute-sanitizer wrote no report"
                         : "compute-sanitizer's report has no summary";
    else if (log.errors == 0 && exit_code == kSanitizerErrorExitCode)
      why = "compute-sanitizer's exit code says it found errors, but its summary counts none";
    else if (log.errors == 0 && exit_code != 0)
      why = "compute-sanitizer exited with code " + std::to_string(exit_code.value_or(-1));
    else if (log.errors == 0 && log.application_error)
      why = "the runner returned an error under compute-sanitizer";
  }
  r.ok = why.empty() && log.errors == 0;
  r.report = cut_report((why.empty() ? "" : why + "\n") + text);
  return r;
}

}  // namespace

const std::vector<std::string>& sanitizer_tools() {
  static const std::vector<std::string> kTools = {"memcheck", "racecheck", "initcheck", "synccheck"};
  return kTools;
}

SanitizerVerdict run_sanitizer(const Task& task, const Backend& backend,
                               const std::filesystem::path& library, uint64_t seed,
                               double timeout_s,
                               const std::function<void(const std::string&)>& progress) {
  if (std::string why = backend.sanitizer_unavailable(); !why.empty())
    throw InputError("--sanitize: " + why);
  SanitizerVerdict v;
  v.shape = smallest_visible_shape(task);
  TempDir dir("arena-sanitizer");
  for (const auto& tool : sanitizer_tools()) {
    if (progress) progress("sanitizer: " + tool + " on " + v.shape.label());
    v.tools.push_back(run_tool(task, backend, library, v.shape, tool, seed, timeout_s, dir.path()));
  }
  return v;
}

}  // namespace arena
