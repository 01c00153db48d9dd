// A solution's kernels timed by Nsight Compute in a runner of their own: the one process under
// ncu, nothing else instrumented. Inside `arena eval` ncu instruments every runner and the
// device helper, and with a second instrumented process holding a context it reads a kernel
// longer than in a process alone (+1.3 us of 16.9 at vector_add n=4194304 on an H100:
// docs/timing.md, "Why ncu reads a kernel longer inside arena eval"); this is the reading the
// judge's median is held against (bench/timing_quality.py ncu).
//   ncu_solo --task cuda/vector_add_f32 --solution FILE --shape "n=4194304" [--calls 10]
// The runner makes `calls` calls on one draw of inputs, outputs poisoned before each, its
// stream not held, the caches flushed by ncu before each kernel (--cache-control all), clocks
// left alone (--clock-control none). Prints JSON: every kernel's gpu__time_duration.sum (ns)
// and each call's sum of them, and their median.
#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "backends/backend_registry.hpp"
#include "cli/eval_options.hpp"
#include "core/error.hpp"
#include "core/subprocess.hpp"
#include "core/task_catalog.hpp"
#include "core/task_loader.hpp"
#include "core/temp_dir.hpp"
#include "judge/compile_cache.hpp"
#include "judge/device_lock.hpp"
#include "judge/input_generator.hpp"
#include "judge/lane.hpp"
#include "judge/ncu_report.hpp"
#include "judge/sample_stats.hpp"

namespace arena {
namespace {

int run(int argc, char** argv) {
  CLI::App app{"A solution's kernels timed by Nsight Compute in a runner of their own"};
  std::string task_id, solution, shape_text, ncu;
  int calls = 10;
  uint64_t seed = 1;
  app.add_option("--task", task_id, "task id, e.g. cuda/vector_add_f32")->required();
  app.add_option("--solution", solution, "the solution's source")
      ->required()
      ->check(CLI::ExistingFile);
  app.add_option("--shape", shape_text, "one shape, e.g. \"n=4194304\"")->required();
  app.add_option("--calls", calls, "calls to profile (default 10)")->check(CLI::Range(1, 1000));
  app.add_option("--seed", seed, "the inputs' seed (default 1)");
  app.add_option(
      "--ncu", ncu,
      "the Nsight Compute executable, a path (default: the one arena-tool profile runs)");
  CLI11_PARSE(app, argc, argv);

  const Task task = load_task(resolve_task(task_id, tasks_root()));
  const Shape shape = cli::parse_shape_arg(task, shape_text);
  BackendOptions options;
  options.cache_dir = default_cache_dir();  // $ARENA_CACHE_DIR where set, as arena's
  options.runner_dir = ARENA_RUNNER_DIR;
  auto backend = make_backend(task.backend, options);
  if (std::string why = backend->profiler_unavailable(); !why.empty()) throw InputError(why);
  const auto library = compile_task_file(task, *backend, solution, "solution", task.libraries);

  TempDir dir("arena-ncu-solo");
  const auto report = dir.path() / "ncu.csv";
  const int64_t bytes = region_bytes(task, shape);
  // The profile round's runner under ncu (its ncu, no stream hold), asked for the duration alone.
  RunnerSpec spec = backend->profiler_runner(backend->runner(library, bytes), report);
  if (spec.wrapper.empty())
    throw InputError("the " + backend->name() + " backend runs no profiler");
  spec.wrapper = {ncu.empty() ? spec.wrapper[0] : ncu,
                  "--csv",
                  "--print-units",
                  "base",
                  "--clock-control",
                  "none",
                  "--cache-control",
                  "all",
                  "--log-file",
                  report.string(),
                  "--metrics",
                  "gpu__time_duration.sum"};
  {
    DeviceLock lock(backend->device_key());  // ncu times on the device: no judge beside it
    Lane lane(*backend, task, library, bytes);
    lane.use_runner_spec(std::move(spec));
    if (std::string err = lane.prepare(shape); !err.empty())
      throw InputError("the runner did not start under ncu: " + err);
    lane.write_inputs(generate_inputs(task, shape, seed));
    lane.arm_guards(seed);
    for (int i = 0; i < calls; ++i) {
      lane.poison_outputs(seed + static_cast<uint64_t>(i));
      CallOutcome o = lane.call(300);
      if (o.kind != CallOutcome::Kind::kOk)
        throw InputError("call " + std::to_string(i) + " failed: " + o.message);
    }
    if (!lane.quit(300))
      throw InputError("ncu did not exit within 300 s of the runner being asked to quit");
  }
  const auto kernels = parse_ncu_csv(read_file(report));
  if (kernels.empty() || kernels.size() % static_cast<size_t>(calls) != 0)
    throw InputError("ncu measured " + std::to_string(kernels.size()) + " kernel launches for " +
                     std::to_string(calls) + " calls: not the same number per call");
  const size_t per_call = kernels.size() / static_cast<size_t>(calls);
  nlohmann::json out;
  out["task"] = task.id;
  out["shape"] = shape.label();
  out["kernels_per_call"] = per_call;
  std::vector<double> sums;
  for (size_t c = 0; c < static_cast<size_t>(calls); ++c) {
    double sum = 0;
    for (size_t k = 0; k < per_call; ++k) {
      const ProfiledKernel& kernel = kernels[c * per_call + k];
      const double ns = kernel.get("gpu__time_duration.sum");
      out["kernels"].push_back({{"name", kernel.name}, {"ns", ns}});
      sum += ns;
    }
    sums.push_back(sum);
  }
  out["calls_ns"] = sums;
  out["median_ns"] = summarize(sums).median;
  std::cout << out.dump(1) << "\n";
  return 0;
}

}  // namespace
}  // namespace arena

int main(int argc, char** argv) {
  try {
    return arena::run(argc, argv);
  } catch (const arena::InputError& e) {
    std::cerr << "ncu_solo: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "ncu_solo: " << e.what() << "\n";
    return 3;
  }
}
