#include "judge/profile_run.hpp"

#include <system_error>

#include "core/error.hpp"
#include "core/subprocess.hpp"
#include "core/temp_dir.hpp"
#include "judge/device_lock.hpp"
#include "judge/input_generator.hpp"
#include "judge/lane.hpp"
#include "judge/random.hpp"
#include "judge/sanitizer_log.hpp"
#include "judge/shape_selection.hpp"

namespace arena {

ProfileResult run_profile(const Task& task, const Backend& backend,
                          const std::filesystem::path& library, uint64_t seed, double timeout_s) {
  if (std::string why = backend.profiler_unavailable(); !why.empty())
    throw InputError("profile: " + why);
  const double start = now_seconds();
  ProfileResult p;
  p.shape = smallest_visible_shape(task);
  TempDir dir("arena-profile");
  const std::filesystem::path report = dir.path() / "ncu.csv";
  const int64_t bytes = region_bytes(task, p.shape);
  {
    // ncu replays the kernel and times it: no other judge may time on the device meanwhile.
    DeviceLock lock(backend.device_key());
    Lane lane(backend, task, library, bytes);
    RunnerSpec spec = backend.profiler_runner(backend.runner(library, bytes), report);
    spec.start_timeout_s = std::max(spec.start_timeout_s, timeout_s);
    lane.use_runner_spec(std::move(spec));
    std::string err = lane.prepare(p.shape);
    if (!err.empty()) {
      p.error = "the runner did not start under the profiler: " + err;
    } else {
      lane.write_inputs(generate_inputs(task, p.shape, seed));
      lane.poison_outputs(seed);
      lane.arm_guards(stream_key(seed, 1000));
      CallOutcome o = lane.call(timeout_s);
      if (o.kind != CallOutcome::Kind::kOk)
        p.error = "the call failed under the profiler: " + o.message;
      std::optional<int> code = lane.quit(timeout_s);
      if (p.error.empty() && !code)
        p.error = "the profiler did not exit within " +
                  std::to_string(static_cast<int>(timeout_s)) +
                  " s of the runner being asked to quit";
    }
  }  // the runner, if still there, is gone here
  std::error_code ec;
  if (std::filesystem::is_regular_file(report, ec)) p.tool_output = read_file(report);
  if (p.error.empty()) {
    try {
      p.kernels = parse_ncu_csv(p.tool_output);
    } catch (const InputError& e) {
      p.error = std::string("the profiler's report could not be read: ") + e.what();
    }
    if (p.error.empty() && p.kernels.empty())
      p.error =
          p.tool_output.empty()
              ? "the profiler wrote no report"
              : "the profiler measured no kernel (did the entry point launch one on `stream`?)";
  }
  p.ok = p.error.empty();
  p.tool_output = p.ok ? "" : cut_report(p.tool_output);
  p.seconds = now_seconds() - start;
  return p;
}

nlohmann::json profile_to_json(const ProfileResult& p) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& k : p.kernels) {
    nlohmann::json metrics = nlohmann::json::object();
    for (const auto& [name, value] : k.metrics) metrics[name] = value;
    kernels.push_back({{"id", k.id},
                       {"name", k.name},
                       {"grid", k.grid},
                       {"block", k.block},
                       {"metrics", metrics}});
  }
  nlohmann::json j = {{"shape", p.shape.label()},
                      {"ok", p.ok},
                      {"kernels", kernels},
                      {"seconds", p.seconds},
                      {"tool", "ncu"}};
  if (!p.ok) {
    j["error"] = p.error;
    j["tool_output"] = p.tool_output;
  }
  return j;
}

}  // namespace arena
