// The judge's own cost on the host: making inputs and checking outputs, per element type, at a
// size where it dominates a large shape's eval. Run: build/bench/judge_bench

#include <benchmark/benchmark.h>

#include <vector>

#include "core/task.hpp"
#include "judge/checker.hpp"
#include "judge/input_generator.hpp"

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

BENCHMARK_CAPTURE(BM_GenerateInputs, fp32, DType::kFp32)->Arg(1 << 24)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_GenerateInputs, bf16, DType::kBf16)->Arg(1 << 24)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_GenerateInputs, int32, DType::kInt32)->Arg(1 << 24)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_CheckOutput, fp32, DType::kFp32)->Arg(1 << 24)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_CheckOutput, bf16, DType::kBf16)->Arg(1 << 24)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_CheckOutput, int32, DType::kInt32)->Arg(1 << 24)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace arena

BENCHMARK_MAIN();
