// Bad input: a clear message naming the file, field or flag, and exit code 2 — never a crash.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "scoped_env.hpp"
#include "arena_cli.hpp"

namespace arena {
namespace {

using testing::run_arena;
using testing::source_path;

// A copy of cpu/vector_add_f32 whose task.yaml has `from` replaced by `to`.
class BrokenTaskDir : public testing::TaskCopy {
 public:
  BrokenTaskDir(const std::string& from, const std::string& to) { edit_yaml(from, to); }
};

testing::ArenaRun eval_task(const std::string& task) {
  return run_arena({"-q", "eval", "--task", task, "--solution", source_path("tasks/cpu/vector_add_f32/starter.cpp"), "--no-timing"});
}

void expect_input_error(const testing::ArenaRun& r, const std::string& text) {
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("error: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(text), std::string::npos) << r.output;
}

TEST(BadInput, MalformedYaml) {
  BrokenTaskDir t("params:", "params: {{[");
  expect_input_error(eval_task(t.dir()), "malformed YAML");
}

TEST(BadInput, MissingField) {
  BrokenTaskDir t("flops: \"n\"\n", "");
  expect_input_error(eval_task(t.dir()), "field 'flops': is missing");
}

TEST(BadInput, MisspelledFieldIsNamedWithTheKnownOnes) {
  BrokenTaskDir t("flops:", "flopz:");
  expect_input_error(eval_task(t.dir()), "field 'flopz': unknown field (known here:");
}

TEST(BadInput, UnknownDtype) {
  BrokenTaskDir t("{name: b, dtype: fp32", "{name: b, dtype: float32");
  expect_input_error(eval_task(t.dir()), "field 'tensors[1].dtype': unknown dtype 'float32'");
}

TEST(BadInput, BadExpression) {
  BrokenTaskDir t("bytes: \"12 * n\"", "bytes: \"12 * / n\"");
  expect_input_error(eval_task(t.dir()), "field 'bytes': bad expression '12 * / n'");
}

TEST(BadInput, UnknownTask) {
  expect_input_error(eval_task("cpu/no_such_task"), "unknown task 'cpu/no_such_task'");
}

TEST(BadInput, MissingSolutionFile) {
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", "/nonexistent/solution.cpp"});
  expect_input_error(r, "--solution '/nonexistent/solution.cpp': no such file");
}

TEST(BadInput, UnknownFlagOrShapeSet) {
  EXPECT_EQ(run_arena({"eval", "-t", "cpu/vector_add_f32", "-s", "x.cpp", "--shapes", "secret"}).exit_code, 2);
  EXPECT_EQ(run_arena({"eval", "--frobnicate"}).exit_code, 2);
  EXPECT_EQ(run_arena({}).exit_code, 2);
}

TEST(BadInput, BadSeed) {
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", source_path("tasks/cpu/vector_add_f32/starter.cpp"),
                      "--seed", "twelve"});
  expect_input_error(r, "--seed 'twelve'");
}

TEST(BadInput, IllegalVisibleShapeIsNamed) {
  BrokenTaskDir t("  - {n: 1000003}", "  - {n: 0}");
  auto r = eval_task(t.dir());
  expect_input_error(r, "n=0 is not legal");
}

TEST(BadInput, SanitizeOnTheCpuSaysThereIsNoSanitizer) {
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", source_path("tasks/cpu/vector_add_f32/starter.cpp"),
                      "--sanitize"});
  expect_input_error(r, "--sanitize: the cpu backend has no sanitizer");
}

TEST(BadInput, GraphModeOnTheCpuIsRefused) {
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", source_path("tasks/cpu/vector_add_f32/starter.cpp"),
                      "--graph", "10"});
  expect_input_error(r, "--graph replays CUDA graphs; cpu/vector_add_f32 is a cpu task");
}

TEST(BadInput, MalformedWindowOverheadNamesTheVariable) {
  testing::ScopedEnv malformed("ARENA_WINDOW_OVERHEAD_NS", "1.1us");
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", source_path("tasks/cpu/vector_add_f32/starter.cpp"),
                      "--no-timing"});
  expect_input_error(r, "ARENA_WINDOW_OVERHEAD_NS is '1.1us'");
}

TEST(BadInput, MalformedPlacementsNamesTheVariable) {
  testing::ScopedEnv malformed("ARENA_PLACEMENTS", "0");
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", source_path("tasks/cpu/vector_add_f32/starter.cpp"),
                      "--no-timing"});
  expect_input_error(r, "ARENA_PLACEMENTS is '0'");
}

TEST(BadInput, MalformedTimedRunnersNamesTheVariable) {
  testing::ScopedEnv malformed("ARENA_TIMED_RUNNERS", "many");
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", source_path("tasks/cpu/vector_add_f32/starter.cpp")});
  expect_input_error(r, "ARENA_TIMED_RUNNERS is 'many'");
}

#ifdef ARENA_WITH_CUDA
// Read when the CUDA backend comes up, GPU or not: a compile-only eval says it too.
TEST(BadInput, MalformedTrustedConnectionsNamesTheVariable) {
  testing::ScopedEnv malformed("ARENA_TRUSTED_CONNECTIONS", "lots");
  auto r = run_arena({"-q", "eval", "-t", "cuda/vector_add_f32", "-s", source_path("tasks/cuda/vector_add_f32/starter.cu"),
                      "--compile-only"});
  expect_input_error(r, "ARENA_TRUSTED_CONNECTIONS is 'lots'");
}
#endif

TEST(BadInput, ExplicitShapesAreCheckedAgainstTheTask) {
  const std::string starter = source_path("tasks/cpu/sgemm_f32/starter.cpp");
  auto eval = [&](const std::string& shape) {
    return run_arena({"-q", "eval", "-t", "cpu/sgemm_f32", "-s", starter, "--shape", shape});
  };
  expect_input_error(eval("M=64 N=64"), "'K' is missing");
  expect_input_error(eval("M=64 N=64 K=64 X=1"), "'X' is not a param of the task");
  expect_input_error(eval("M=64 N=sixty K=64"), "'sixty' is not an integer");
  expect_input_error(eval("M=64 N=64 K=64 M=2"), "'M' is given twice");
  expect_input_error(eval("M=4096 N=4096 K=4096"), "is not legal for cpu/sgemm_f32");
}

TEST(BadInput, BaselineExpertNeedsAnExpert) {
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", source_path("tasks/cpu/vector_add_f32/starter.cpp"),
                      "--baseline", "expert"});
  expect_input_error(r, "--baseline expert, but the task declares no 'expert' file");
}

TEST(Help, EveryCommandHasHelp) {
  for (std::vector<std::string> cmd : {std::vector<std::string>{"--help"}, {"eval", "--help"}, {"tasks", "--help"},
                                       {"tasks", "list", "--help"}, {"tasks", "show", "--help"}, {"tasks", "check", "--help"},
                                       {"serve", "--help"}}) {
    auto r = run_arena(cmd);
    EXPECT_EQ(r.exit_code, 0) << cmd[0];
    EXPECT_NE(r.output.find("Usage"), std::string::npos) << r.output;
  }
  EXPECT_NE(run_arena({"--help"}).output.find("Exit codes"), std::string::npos);
}

}  // namespace
}  // namespace arena
