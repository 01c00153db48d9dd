#include "core/task_loader.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.hpp"
#include "judge/input_generator.hpp"
#include "task_files.hpp"

namespace arena {
namespace {

using testing::replace;
using testing::TempTask;
using testing::valid_task_yaml;

// The message of the InputError that loading `yaml` throws.
std::string load_error(const std::string& yaml) {
  TempTask t(yaml);
  try {
    load_task(t.dir());
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(TaskLoader, LoadsAValidTask) {
  TempTask t(valid_task_yaml());
  Task task = load_task(t.dir());
  EXPECT_EQ(task.id, "cpu/vadd");
  EXPECT_EQ(task.entry, "vadd");
  ASSERT_EQ(task.tensors.size(), 3u);
  EXPECT_EQ(task.tensors[2].role, Role::kOutput);
  ASSERT_EQ(task.scalars.size(), 1u);  // every param, by default
  EXPECT_EQ(task.scalars[0].name, "n");
  EXPECT_EQ(task.visible.size(), 2u);
  EXPECT_EQ(task.elements(task.tensors[0], task.visible[1]), 4097);
  EXPECT_EQ(task.baseline, task.starter);
  EXPECT_EQ(task.tolerance.at(DType::kFp32).rtol, 1e-5);
}

TEST(TaskLoader, MalformedYamlNamesFileAndLine) {
  std::string msg = load_error("name: x\nparams: {n: [1, 2\n");
  EXPECT_NE(msg.find("task.yaml:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("malformed YAML"), std::string::npos) << msg;
}

TEST(TaskLoader, MissingFieldIsNamed) {
  std::string msg = load_error(replace(valid_task_yaml(), "flops: \"n\"\n", ""));
  EXPECT_NE(msg.find("field 'flops': is missing"), std::string::npos) << msg;
}

TEST(TaskLoader, UnknownDtypeNamesFieldLineAndChoices) {
  std::string msg = load_error(replace(valid_task_yaml(), "{name: b, dtype: fp32", "{name: b, dtype: fp33"));
  EXPECT_NE(msg.find("task.yaml:8: field 'tensors[1].dtype': unknown dtype 'fp33'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("bf16"), std::string::npos) << msg;
}

TEST(TaskLoader, BadExpressionIsQuoted) {
  std::string msg = load_error(replace(valid_task_yaml(), "bytes: \"12 * n\"", "bytes: \"12 * (n\""));
  EXPECT_NE(msg.find("field 'bytes'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'12 * (n'"), std::string::npos) << msg;
}

TEST(TaskLoader, ExpressionWithUnknownNameIsRejected) {
  std::string msg = load_error(replace(valid_task_yaml(), "shape: [n]}\n  - {name: b", "shape: [m]}\n  - {name: b"));
  EXPECT_NE(msg.find("unknown name 'm'"), std::string::npos) << msg;
}

TEST(TaskLoader, UnknownFieldIsATypo) {
  std::string msg = load_error(valid_task_yaml() + "tolerence: {fp32: {atol: 1}}\n");
  EXPECT_NE(msg.find("field 'tolerence': unknown field"), std::string::npos) << msg;
}

TEST(TaskLoader, VisibleShapeMustGiveEveryParam) {
  std::string msg = load_error(replace(valid_task_yaml(), "  - {n: 4097}", "  - {m: 4097}"));
  EXPECT_NE(msg.find("'m' is not a param"), std::string::npos) << msg;
}

TEST(TaskLoader, InputsComeBeforeOutputs) {
  std::string yaml = replace(valid_task_yaml(), "  - {name: out, dtype: fp32, role: output, shape: [n]}\n", "");
  yaml = replace(yaml, "  - {name: a,", "  - {name: out, dtype: fp32, role: output, shape: [n]}\n  - {name: a,");
  EXPECT_NE(load_error(yaml).find("inputs must come before outputs"), std::string::npos);
}

TEST(TaskLoader, MissingStarterFileIsNamed) {
  std::string msg = load_error(replace(valid_task_yaml(), "starter: starter.cpp", "starter: nowhere.cpp"));
  EXPECT_NE(msg.find("nowhere.cpp' does not exist"), std::string::npos) << msg;
}

TEST(TaskLoader, NoTaskYamlSaysWhatATaskDirectoryHolds) {
  try {
    load_task("/nonexistent/dir");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no task.yaml"), std::string::npos);
  }
}

TEST(TaskLoader, ShapeProblemsCoverDomainsConstraintsAndMemory) {
  TempTask t(replace(valid_task_yaml(), "flops:", "constraints: [\"n % 2 == 1 || n == 1000\"]\nlimits: {memory_bytes: 120000}\nflops:"));
  Task task = load_task(t.dir());
  EXPECT_TRUE(task.shape_problems(Shape{{{"n", 1001}}}).empty());
  EXPECT_FALSE(task.shape_problems(Shape{{{"n", 0}}}).empty());        // below min
  EXPECT_FALSE(task.shape_problems(Shape{{{"n", 1002}}}).empty());     // constraint
  EXPECT_FALSE(task.shape_problems(Shape{{{"n", 20001}}}).empty());    // memory cap
  EXPECT_FALSE(task.shape_problems(Shape{{{"q", 3}}}).empty());        // unknown param
}

TEST(TaskLoader, ToleranceScalesWithTheReductionLength) {
  TempTask t(replace(valid_task_yaml(), "flops:", "tolerance: {fp32: {atol: 1e-4, rtol: 2e-4}, reduction: n}\nflops:"));
  Task task = load_task(t.dir());
  Tolerance tol = task.tolerance_for(task.tensors[2], Shape{{{"n", 100}}});
  EXPECT_DOUBLE_EQ(tol.atol, 1e-3);
  EXPECT_DOUBLE_EQ(tol.rtol, 2e-3);
}

TEST(TaskLoader, ScalarsWithValues) {
  TempTask t(replace(valid_task_yaml(), "flops:", "scalars:\n  - {name: n}\n  - {name: eps, type: float, value: \"1e-6\"}\nflops:"));
  Task task = load_task(t.dir());
  ASSERT_EQ(task.scalars.size(), 2u);
  EXPECT_EQ(task.scalars[1].type, ScalarType::kFloat);
  EXPECT_DOUBLE_EQ(task.scalars[1].value.eval({}), 1e-6);
}

TEST(TaskLoader, IntegerBoundsMayBeExpressionsOverTheParams) {
  // Indices into a table of n rows: every index in [0, n - 1], at every shape.
  const std::string yaml = replace(valid_task_yaml(), "{name: b, dtype: fp32, role: input, shape: [n]}",
                                   "{name: b, dtype: int32, role: input, shape: [n], distribution: {kind: integer, low: 0, high: \"n - 1\"}}");
  TempTask t(yaml);
  Task task = load_task(t.dir());
  const Distribution& d = task.tensors[1].distribution;
  EXPECT_EQ(d.high_at(task.bind(task.visible[0])), 999);
  EXPECT_EQ(d.high_at(task.bind(task.visible[1])), 4096);
  std::vector<HostBuffer> in = generate_inputs(task, task.visible[0], 42);
  const auto* idx = reinterpret_cast<const int32_t*>(in[1].data());
  int32_t lo = idx[0], hi = idx[0];
  for (int i = 0; i < 1000; ++i) lo = std::min(lo, idx[i]), hi = std::max(hi, idx[i]);
  EXPECT_GE(lo, 0);
  EXPECT_LE(hi, 999);
  EXPECT_GT(hi, 900) << "the draws cover the range";
}

TEST(TaskLoader, ExpressionBoundsAreCheckedAndOnlyForIntegers) {
  EXPECT_NE(load_error(replace(valid_task_yaml(), "{name: b, dtype: fp32, role: input, shape: [n]}",
                               "{name: b, dtype: fp32, role: input, shape: [n], distribution: {low: 0, high: \"n\"}}"))
                .find("expressions over the params are for kind: integer"),
            std::string::npos);
  EXPECT_NE(load_error(replace(valid_task_yaml(), "{name: b, dtype: fp32, role: input, shape: [n]}",
                               "{name: b, dtype: int32, role: input, shape: [n], distribution: {kind: integer, low: 0, high: \"m - 1\"}}"))
                .find("'m'"),
            std::string::npos);
  EXPECT_NE(load_error(replace(valid_task_yaml(), "{name: b, dtype: fp32, role: input, shape: [n]}",
                               "{name: b, dtype: int32, role: input, shape: [n], distribution: {kind: integer, low: 2000, high: \"n\"}}"))
                .find("low exceeds its high"),
            std::string::npos);
}

TEST(TaskLoader, DistinctValuesDifferWithinEveryRow) {
  // Rows of 1000 (visible n = 1000 as one row) and of 4097: no two values of a row are equal.
  const std::string yaml = replace(valid_task_yaml(), "{name: b, dtype: fp32, role: input, shape: [n]}",
                                   "{name: b, dtype: fp32, role: input, shape: [n], distribution: {kind: distinct}}");
  TempTask t(yaml);
  Task task = load_task(t.dir());
  EXPECT_EQ(task.tensors[1].distribution.kind, Distribution::Kind::kDistinct);
  for (const auto& shape : task.visible) {
    std::vector<HostBuffer> in = generate_inputs(task, shape, 7);
    const auto* v = reinterpret_cast<const float*>(in[1].data());
    std::vector<float> sorted(v, v + shape.params.at("n"));
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << shape.label();
    EXPECT_LT(sorted.front(), -0.2f);  // spread over the range, not bunched
    EXPECT_GT(sorted.back(), 0.2f);
    std::vector<HostBuffer> again = generate_inputs(task, shape, 7);
    EXPECT_EQ(in[1], again[1]) << "the same seed gives the same values";
  }
  EXPECT_NE(load_error(replace(valid_task_yaml(), "{name: b, dtype: fp32, role: input, shape: [n]}",
                               "{name: b, dtype: int32, role: input, shape: [n], distribution: {kind: distinct}}"))
                .find("distinct is for float tensors"),
            std::string::npos);
}

TEST(TaskLoader, OffsetsAreCsrRowPointersEndingAtTheirTotal) {
  // n + 1 row pointers over n rows, nnz = 3 n entries: 0 first, 3 n last, never decreasing.
  std::string yaml = replace(valid_task_yaml(), "{name: b, dtype: fp32, role: input, shape: [n]}",
                             "{name: b, dtype: fp32, role: input, shape: [n]}\n"
                             "  - {name: ptr, dtype: int32, role: input, shape: [n + 1], distribution: {kind: offsets, total: \"3 * n\"}}");
  TempTask t(yaml);
  Task task = load_task(t.dir());
  for (const auto& shape : task.visible) {
    const int64_t n = shape.params.at("n");
    std::vector<HostBuffer> in = generate_inputs(task, shape, 11);
    const auto* p = reinterpret_cast<const int32_t*>(in[2].data());
    EXPECT_EQ(p[0], 0);
    EXPECT_EQ(p[n], 3 * n);
    int64_t longest = 0, empty = 0;
    for (int64_t i = 0; i < n; ++i) {
      ASSERT_LE(p[i], p[i + 1]) << "at row " << i;
      longest = std::max<int64_t>(longest, p[i + 1] - p[i]);
      empty += p[i + 1] == p[i];
    }
    EXPECT_GT(longest, 12) << "some rows are much longer than the mean of 3";
    EXPECT_GT(empty, 0) << "some rows are empty";
  }
  EXPECT_NE(load_error(replace(valid_task_yaml(), "{name: b, dtype: fp32, role: input, shape: [n]}",
                               "{name: b, dtype: int32, role: input, shape: [n], distribution: {kind: offsets}}"))
                .find("needs 'total'"),
            std::string::npos);
  EXPECT_NE(load_error(replace(valid_task_yaml(), "{name: b, dtype: fp32, role: input, shape: [n]}",
                               "{name: b, dtype: fp32, role: input, shape: [n], distribution: {kind: offsets, total: n}}"))
                .find("offsets are int32"),
            std::string::npos);
}

TEST(TaskLoader, Uint8InputsCoverTheWholeByteRangeByDefault) {
  TempTask t(replace(valid_task_yaml(), "{name: b, dtype: fp32, role: input, shape: [n]}",
                     "{name: b, dtype: uint8, role: input, shape: [n]}"));
  Task task = load_task(t.dir());
  std::vector<HostBuffer> in = generate_inputs(task, task.visible[1], 3);
  const auto* v = reinterpret_cast<const uint8_t*>(in[1].data());
  int lo = 255, hi = 0;
  for (int i = 0; i < 4097; ++i) lo = std::min<int>(lo, v[i]), hi = std::max<int>(hi, v[i]);
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(hi, 255);
}

}  // namespace
}  // namespace arena
