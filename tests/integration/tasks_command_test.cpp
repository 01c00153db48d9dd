// arena tasks list / show / check.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "arena_cli.hpp"

namespace arena {
namespace {

using testing::run_arena;
using testing::source_path;

TEST(TasksCommand, ListsTheCpuSuite) {
  auto r = run_arena({"tasks", "list", "--suite", "cpu"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  for (const char* t : {"cpu/vector_add_f32", "cpu/softmax_f32", "cpu/sgemm_f32", "cpu/transpose_f32"})
    EXPECT_NE(r.output.find(t), std::string::npos) << t;
}

TEST(TasksCommand, ShowPrintsTheSignature) {
  auto r = run_arena({"tasks", "show", "sgemm_f32"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("void sgemm_f32(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K)"),
            std::string::npos)
      << r.output;
}

TEST(TasksCommand, CheckPassesASoundTask) {
  auto r = run_arena({"-q", "tasks", "check", "cpu/vector_add_f32", "cpu/prefix_sum_i32"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("all 2 tasks are sound"), std::string::npos) << r.output;
}

// A copy of the vector_add task with its own starter and task.yaml changes.
std::filesystem::path copy_task(const std::string& name, const std::string& from, const std::string& to,
                                const std::string& starter = "") {
  auto root = std::filesystem::temp_directory_path() / ("arena-check-" + std::to_string(getpid()) + "-" + name);
  auto dir = root / "cpu" / "vector_add_f32";
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(dir);
  for (const auto& f : std::filesystem::directory_iterator(source_path("tasks/cpu/vector_add_f32")))
    std::filesystem::copy(f.path(), dir / f.path().filename());
  std::string yaml = read_file(dir / "task.yaml");
  if (!from.empty()) yaml.replace(yaml.find(from), from.size(), to);
  std::ofstream(dir / "task.yaml") << yaml;
  if (!starter.empty()) std::filesystem::copy_file(starter, dir / "starter.cpp", std::filesystem::copy_options::overwrite_existing);
  return root;
}

TEST(TasksCommand, CheckRejectsAStarterThatDisagreesWithTheReference) {
  auto root = copy_task("wrong-starter", "", "", std::string(ARENA_TEST_DATA) + "/broken/cpu/wrong_tail.cpp");
  auto r = run_arena({"-q", "--tasks-dir", root.string(), "tasks", "check", "cpu/vector_add_f32"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("the starter fails at"), std::string::npos) << r.output;
  std::filesystem::remove_all(root);
}

TEST(TasksCommand, CheckRejectsToleranceSoLooseThatZerosPass) {
  auto root = copy_task("loose", "fp32: {atol: 1e-6, rtol: 1e-6}", "fp32: {atol: 1e-2, rtol: 1e-2}");
  // Loose but under the per-dtype cap: the degenerate-output audit has to catch it, with
  // inputs squeezed near zero so that zeros pass.
  std::string yaml = read_file(root / "cpu/vector_add_f32/task.yaml");
  yaml.replace(yaml.find("{name: a, dtype: fp32, role: input, shape: [n]}"), 47,
               "{name: a, dtype: fp32, role: input, shape: [n], distribution: {low: -0.001, high: 0.001, offset: 0, scale: 1}}");
  yaml.replace(yaml.find("{name: b, dtype: fp32, role: input, shape: [n]}"), 47,
               "{name: b, dtype: fp32, role: input, shape: [n], distribution: {low: -0.001, high: 0.001, offset: 0, scale: 1}}");
  std::ofstream(root / "cpu/vector_add_f32/task.yaml") << yaml;
  auto r = run_arena({"-q", "--tasks-dir", root.string(), "tasks", "check", "cpu/vector_add_f32"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("the constant output 0"), std::string::npos) << r.output;
  std::filesystem::remove_all(root);
}

TEST(TasksCommand, CheckRejectsAVisibleShapeBreakingAConstraint) {
  auto root = copy_task("constraint", "flops:", "constraints: [\"n % 2 == 0\"]\nflops:");
  auto r = run_arena({"-q", "--tasks-dir", root.string(), "tasks", "check", "cpu/vector_add_f32"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("constraint 'n % 2 == 0' does not hold"), std::string::npos) << r.output;
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace arena
