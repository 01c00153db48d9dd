// A solution's kernels timed by Nsight Compute in a runner of their own: the one process under
// ncu, nothing else instrumented. Inside `arena eval` ncu instruments every runner and the
// device helper, and with a second instrumented process holding a context it reads a kernel
// longer than in a process alone (+1.3 us of 16.9 at vector_add n=4194304 on an H100:
// docs/timing.md, "Why ncu reads a kernel longer inside arena eval"); this is the reading the
// judge's median is held against (bench/timing_quality.py ncu).
//   ncu_solo --task cuda/vector_add_f32 --solution FILE --shape "n=4194304" [--calls 16]
//            [--placements 8]
// The runner makes `calls` calls on one draw of inputs, outputs poisoned before each, its
// stream not held, the caches flushed by ncu before each kernel (--cache-control all), clocks
// left alone (--clock-control none). Its buffers are the judge's: on the device plane, the
// region laid out `placements` times over on 2 MiB pages of their own (judge/placements.hpp),
// each call on the next copy, as a timed side's pairs move (the same kernel reads differently
// at different places in device memory, and the allocator hands out the same places to every
// process: one place would hold the judge's median over 8 against one place's luck).
// `--placements 0`: the runner's own cudaMalloc'd buffers (what this tool did before).
// Prints JSON: every kernel's gpu__time_duration.sum (ns) and each call's sum of them with its
// placement, their median, and the median of each placement.
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
#include "judge/device_plane.hpp"
#include "judge/input_generator.hpp"
#include "judge/lane.hpp"
#include "judge/ncu_report.hpp"
#include "judge/sample_stats.hpp"

namespace arena {
namespace {

int run(int argc, char** argv) {
  CLI::App app{"A solution's kernels timed by Nsight Compute in a runner of their own"};
  std::string task_id, solution, shape_text, ncu;
  int calls = 16;
  int placements = 8;
  uint64_t seed = 1;
  app.add_option("--task", task_id, "task id, e.g. cuda/vector_add_f32")->required();
  app.add_option("--solution", solution, "the solution's source")
      ->required()
      ->check(CLI::ExistingFile);
  app.add_option("--shape", shape_text, "one shape, e.g. \"n=4194304\"")->required();
  app.add_option("--calls", calls, "calls to profile (default 16)")->check(CLI::Range(1, 1000));
  app.add_option("--placements", placements,
                 "copies of the region on the device plane, each call on the next (default 8, the "
                 "judge's; 0: the runner's own buffers, one place)")
      ->check(CLI::Range(0, 64));
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
  std::vector<int> placement_of_call;
  int used_placements = 1;
  {
    DeviceLock lock(backend->device_key());  // ncu times on the device: no judge beside it
    // The helper is not under ncu (a second instrumented process would lengthen the readings);
    // the plane is declared before the lane, which maps its buffers.
    std::unique_ptr<DevicePlane> plane;
    if (placements > 0) {
      auto helper = backend->device_helper();
      if (!helper)
        throw InputError("the " + backend->name() +
                         " backend has no device helper: give --placements 0");
      plane = std::make_unique<DevicePlane>(*helper);
      if (const std::string& why = plane->unavailable(); !why.empty()) throw InputError(why);
    }
    Lane lane(*backend, task, library, bytes);
    lane.use_runner_spec(std::move(spec));
    if (plane) {
      lane.use_device_plane(plane.get());
      lane.use_placements(placements);
    }
    if (std::string err = lane.prepare(shape); !err.empty())
      throw InputError("the runner did not start under ncu: " + err);
    const auto inputs = generate_inputs(task, shape, seed);
    if (lane.device_plane() != nullptr) {
      used_placements = lane.placements();
      // The inputs into the first copy, then device to device into the others.
      size_t k = 0;
      for (size_t i = 0; i < task.tensors.size(); ++i) {
        if (task.tensors[i].role != Role::kInput) continue;
        const auto& slot = lane.layout().slots[i];
        const HostBuffer& src = inputs.at(k++);
        plane->upload(lane.placement(0, 0), slot.offset, src.data(), src.size());
        for (int j = 1; j < used_placements; ++j)
          plane->copy(lane.placement(0, j), slot.offset, lane.placement(0, 0), slot.offset,
                      src.size());
      }
    } else {
      if (plane) throw InputError("the region did not fit on the device plane: " + lane.device_plane_off());
      lane.write_inputs(inputs);
      lane.arm_guards(seed);
    }
    for (int i = 0; i < calls; ++i) {
      const auto nonce = seed + static_cast<uint64_t>(i);
      placement_of_call.push_back(i % used_placements);
      CallOutcome o;
      if (lane.device_plane() != nullptr) {
        lane.poison_outputs_on_device(nonce);
        o = lane.call(300, false, 0, 0, Lane::Transfer::kNone);
        lane.next_placement();
      } else {
        lane.poison_outputs(nonce);
        o = lane.call(300);
      }
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
  out["placements"] = placements > 0 ? used_placements : 0;
  out["calls_placement"] = placement_of_call;
  std::vector<double> sums;
  std::vector<std::vector<double>> by_placement(static_cast<size_t>(used_placements));
  for (size_t c = 0; c < static_cast<size_t>(calls); ++c) {
    double sum = 0;
    for (size_t k = 0; k < per_call; ++k) {
      const ProfiledKernel& kernel = kernels[c * per_call + k];
      const double ns = kernel.get("gpu__time_duration.sum");
      out["kernels"].push_back({{"name", kernel.name}, {"ns", ns}});
      sum += ns;
    }
    sums.push_back(sum);
    by_placement[static_cast<size_t>(placement_of_call[c])].push_back(sum);
  }
  out["calls_ns"] = sums;
  out["median_ns"] = summarize(sums).median;
  for (const auto& p : by_placement)
    out["placement_medians_ns"].push_back(p.empty() ? nlohmann::json() : nlohmann::json(summarize(p).median));
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
