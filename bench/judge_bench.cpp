// The judge's own cost on the host: making inputs and checking outputs, per element type, at a
// size where it dominates a large shape's eval; and one call of a CPU runner at the smallest
// shape (the request's round trip with the judge's reads of the runner's CPU times and threads
// around it); an upload to the device plane, the judge's side. Run: build/bench/judge_bench

#include <benchmark/benchmark.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend_registry.hpp"
#include "core/subprocess.hpp"
#include "core/task.hpp"
#include "core/task_loader.hpp"
#include "judge/checker.hpp"
#include "judge/device_plane.hpp"
#include "judge/input_generator.hpp"
#include "judge/lane.hpp"

namespace arena {
namespace {

Task one_tensor_task(DType dtype) {
  Task t;
  t.params = {ParamDomain{"n", 1, int64_t{1} << 32, 1}};
  TensorSpec in;
  in.name = "x";
  in.dtype = dtype;
  in.role = Role::kInput;
  in.shape = {Expr::parse("n")};
  if (!dtype_is_float(dtype)) {
    in.distribution.kind = Distribution::Kind::kInteger;
    in.distribution.low = -100;
    in.distribution.high = 100;
    in.distribution.offset = 0;
    in.distribution.scale = 1;
  }
  t.tensors = {in};
  return t;
}

void BM_GenerateInputs(benchmark::State& state, DType dtype) {
  Task t = one_tensor_task(dtype);
  Shape s{{{"n", state.range(0)}}};
  uint64_t seed = 1;
  for (auto _ : state) benchmark::DoNotOptimize(generate_inputs(t, s, seed++));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_CheckOutput(benchmark::State& state, DType dtype) {
  Task t = one_tensor_task(dtype);
  Shape s{{{"n", state.range(0)}}};
  auto a = generate_inputs(t, s, 1)[0];
  auto b = a;
  TensorSpec out = t.tensors[0];
  out.role = Role::kOutput;
  std::vector<int64_t> dims = {state.range(0)};
  for (auto _ : state)
    benchmark::DoNotOptimize(check_output(out, dims, b.data(), a.data(), {1e-5, 1e-5}, make_poison(dtype, 1)));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// One call of the vector_add starter at n = 1 in a CPU runner: what a timed call costs the judge
// beyond the kernel (poisoning the outputs, the request and reply, the runner's CPU times and
// threads read from /proc). Per call, as wall time.
void BM_RunnerCall(benchmark::State& state) {
  const std::filesystem::path source = ARENA_SOURCE_DIR;
  BackendOptions options;
  options.cache_dir = std::filesystem::temp_directory_path() / "arena-judge-bench-cache";
  options.runner_dir = ARENA_RUNNER_DIR;
  std::unique_ptr<Backend> backend = make_backend("cpu", options);
  Task task = load_task(source / "tasks/cpu/vector_add_f32");
  CompileResult lib = backend->compile(task, read_file(source / "tasks/cpu/vector_add_f32/starter.cpp"), task.libraries);
  if (!lib.ok) {
    state.SkipWithError(("the starter did not compile: " + lib.log).c_str());
    return;
  }
  Shape shape{{{"n", 1}}};
  Lane lane(*backend, task, lib.library, 1 << 20);
  if (std::string why = lane.prepare(shape); !why.empty()) {
    state.SkipWithError(why.c_str());
    return;
  }
  lane.write_inputs(generate_inputs(task, shape, 1));
  uint64_t nonce = 0;
  for (auto _ : state) {
    lane.poison_outputs(++nonce);
    CallOutcome o = lane.call(10);
    if (o.kind != CallOutcome::Kind::kOk) {
      state.SkipWithError(o.message.c_str());
      break;
    }
  }
  lane.quit(5);
}

// The judge's side of an upload to the device plane, through the 64 MiB staging region, against
// the stand-in helper (tests/unit/fake_device_helper.cpp: its "device" copy is a memmove): what
// the checked calls pay per byte of input drawn on the host, less the device's own copy.
void BM_PlaneUpload(benchmark::State& state) {
  setenv("FAKE_DEVICE_BYTES", std::to_string(state.range(0) + (1 << 20)).c_str(), 1);
  RunnerSpec s;
  s.binary = FAKE_DEVICE_HELPER;
  s.extra_args = {"0"};
  DevicePlane plane(s);
  if (!plane.unavailable().empty()) {
    state.SkipWithError(plane.unavailable().c_str());
    return;
  }
  std::string why;
  DevicePlane::Buffer b = plane.allocate(static_cast<uint64_t>(state.range(0)), false, &why);
  std::vector<std::byte> data(static_cast<size_t>(state.range(0)), std::byte{7});
  for (auto _ : state) plane.upload(b, 0, data.data(), data.size());
  state.SetBytesProcessed(state.iterations() * state.range(0));
}

BENCHMARK(BM_RunnerCall)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_GenerateInputs, fp32, DType::kFp32)->Arg(1 << 24)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_GenerateInputs, bf16, DType::kBf16)->Arg(1 << 24)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_GenerateInputs, int32, DType::kInt32)->Arg(1 << 24)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_CheckOutput, fp32, DType::kFp32)->Arg(1 << 24)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_CheckOutput, bf16, DType::kBf16)->Arg(1 << 24)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_CheckOutput, int32, DType::kInt32)->Arg(1 << 24)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK(BM_PlaneUpload)->Arg(256 << 20)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace arena

BENCHMARK_MAIN();
