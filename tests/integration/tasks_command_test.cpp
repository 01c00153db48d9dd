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
  auto r = run_arena({"tasks", "show", "cpu/sgemm_f32"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("void sgemm_f32(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K)"),
            std::string::npos)
      << r.output;
}

TEST(TasksCommand, ANameTwoBackendsShareIsAmbiguous) {
  auto r = run_arena({"tasks", "show", "sgemm_f32"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("ambiguous"), std::string::npos) << r.output;
}

TEST(TasksCommand, CheckPassesASoundTask) {
  // The real tasks, vector_add up to its largest legal shape (n = 67M): ~30 s in the normal
  // build, over 300 s in the unoptimized ASan build on a loaded two-core machine.
  // One held-out seed: each one judges the starter on ten more shapes, some as large.
  auto r = run_arena(
      {"-q", "tasks", "check", "cpu/vector_add_f32", "cpu/prefix_sum_i32", "--heldout-seeds", "1"},
      false, 1200);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("all 2 tasks are sound"), std::string::npos) << r.output;
}

testing::ArenaRun check_copy(const testing::TaskCopy& t, int heldout_seeds = 1) {
  return run_arena({"-q", "--tasks-dir", t.root(), "tasks", "check", "cpu/vector_add_f32",
                    "--heldout-seeds", std::to_string(heldout_seeds)});
}

TEST(TasksCommand, CheckRejectsAStarterWrongOnlyOnHeldOutShapes) {
  // Correct on every visible shape and the largest legal one, wrong below n = 1000000: only the
  // held-out shapes find it (n = 65537 is declared, so every seed draws it).
  testing::TaskCopy t;
  t.replace_file("starter.cpp",
                 std::string(ARENA_TEST_DATA) + "/broken/cpu/wrong_below_visible.cpp");
  auto r = run_arena({"-q", "--tasks-dir", t.root(), "tasks", "check", "cpu/vector_add_f32",
                      "--seed", "7", "--heldout-seeds", "2"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("cpu/vector_add_f32: the starter fails at held-out shape n=65537 "
                          "(production) under seed 7"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("wrong_values"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--shapes heldout --seed 7 --no-timing"), std::string::npos)
      << "the command that reproduces it\n"
      << r.output;
  EXPECT_NE(r.output.find("(it fails under 1 more of the 2 seeds)"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("the starter fails at n="), std::string::npos)
      << "the visible shapes pass\n"
      << r.output;
  EXPECT_NE(r.output.find("(seed 7; held-out shapes of seeds 7 to 8"), std::string::npos)
      << r.output;

  // Without the held-out step, the task looks sound: this is what only that step catches.
  auto skipped = check_copy(t, 0);
  EXPECT_EQ(skipped.exit_code, 0) << skipped.output;
}

TEST(TasksCommand, CheckRejectsAStarterThatDisagreesWithTheReference) {
  testing::TaskCopy t;
  t.replace_file("starter.cpp", std::string(ARENA_TEST_DATA) + "/broken/cpu/wrong_tail.cpp");
  auto r = check_copy(t);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("the starter fails at"), std::string::npos) << r.output;
}

TEST(TasksCommand, CheckRejectsToleranceSoLooseThatZerosPass) {
  // Loose but under the per-dtype cap: the degenerate-output audit has to catch it, with
  // inputs squeezed near zero so that zeros pass.
  const std::string squeezed = ", distribution: {low: -0.001, high: 0.001, offset: 0, scale: 1}}";
  testing::TaskCopy t;
  t.edit_yaml("fp32: {atol: 1e-6, rtol: 1e-6}", "fp32: {atol: 1e-2, rtol: 1e-2}")
      .edit_yaml("{name: a, dtype: fp32, role: input, shape: [n]}", "{name: a, dtype: fp32, role: input, shape: [n]" + squeezed)
      .edit_yaml("{name: b, dtype: fp32, role: input, shape: [n]}", "{name: b, dtype: fp32, role: input, shape: [n]" + squeezed);
  auto r = check_copy(t);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("the constant output 0"), std::string::npos) << r.output;
}

TEST(TasksCommand, CheckRejectsAnEquivarianceTheReferenceBreaks) {
  // A running sum is not equivariant along n: reordering a and b changes every partial sum.
  const std::string scan = std::string(::testing::TempDir()) + "/running_sum_reference.cpp";
  std::ofstream(scan) << "#include \"arena_signature.h\"\n"
                         "extern \"C\" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {\n"
                         "  float s = 0;\n"
                         "  for (int64_t i = 0; i < n; ++i) out[i] = (s += a[i] + b[i]);\n"
                         "}\n";
  testing::TaskCopy t;
  t.replace_file("reference.cpp", scan);
  auto r = check_copy(t);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("does not just reorder 'out'"), std::string::npos) << r.output;
}

TEST(TasksCommand, CheckValidatesTheReferenceAgainstItsHostReference) {
  testing::TaskCopy t;
  t.replace_file("host_reference.cpp", testing::source_path("tasks/cpu/vector_add_f32/reference.cpp"))
      .edit_yaml("reference: reference.cpp", "reference: reference.cpp\nhost_reference: host_reference.cpp");
  auto r = check_copy(t);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("fp64 host 4/4"), std::string::npos) << r.output;
}

TEST(TasksCommand, CheckRejectsAReferenceTheHostReferenceContradicts) {
  testing::TaskCopy t;
  t.replace_file("host_reference.cpp", std::string(ARENA_TEST_DATA) + "/broken/cpu/wrong_tail.cpp")
      .edit_yaml("reference: reference.cpp", "reference: reference.cpp\nhost_reference: host_reference.cpp");
  auto r = check_copy(t);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("differ from the fp64 host reference"), std::string::npos) << r.output;
}

TEST(TasksCommand, CheckRejectsAVisibleShapeBreakingAConstraint) {
  testing::TaskCopy t;
  t.edit_yaml("flops:", "constraints: [\"n % 2 == 0\"]\nflops:");
  auto r = check_copy(t);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("constraint 'n % 2 == 0' does not hold"), std::string::npos) << r.output;
}

TEST(TasksCommand, TableJudgesAndRendersSavedVerdicts) {
  const auto dir = std::filesystem::temp_directory_path() / ("arena-table-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string json = (dir / "v.json").string(), md = (dir / "tasks.md").string();
  auto live = run_arena({"-q", "tasks", "table", "cpu/prefix_sum_i32", "--max-time", "0.2", "--json", json});
  EXPECT_EQ(live.exit_code, 0) << live.output;
  EXPECT_NE(live.output.find("n=16777216"), std::string::npos) << "the largest visible shape\n" << live.output;
  auto saved = run_arena({"-q", "tasks", "table", "cpu/prefix_sum_i32", "--from", json, "--markdown", md});
  EXPECT_EQ(saved.exit_code, 0) << saved.output;
  const std::string page = read_file(md);
  EXPECT_NE(page.find("| cpu/prefix_sum_i32 | n=16777216 |"), std::string::npos) << page;
  EXPECT_NE(page.find("--from " + json), std::string::npos) << page;
  // A file that is not an array of verdicts is an input error naming it.
  std::ofstream(dir / "bad.json") << "[{\"task\": \"cpu/prefix_sum_i32\"}]";
  auto bad = run_arena({"-q", "tasks", "table", "cpu/prefix_sum_i32", "--from", (dir / "bad.json").string()});
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("bad.json': element 0 is not a whole verdict"), std::string::npos) << bad.output;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace arena
