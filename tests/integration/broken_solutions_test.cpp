// Every failure class the CPU can produce, each from a solution broken in exactly that way: the
// plain failures of tests/data/broken/cpu and the cheats of tests/redteam/cpu that end in one.

#include <gtest/gtest.h>

#include "arena_cli.hpp"

namespace arena {
namespace {

using testing::broken;
using testing::redteam;
using testing::run_arena;

struct BrokenCase {
  const char* file;
  const char* failure_class;
  bool cheat = false;  // in tests/redteam/cpu, not tests/data/broken/cpu
};

void PrintTo(const BrokenCase& c, std::ostream* os) { *os << c.file << " -> " << c.failure_class; }

class BrokenSolution : public ::testing::TestWithParam<BrokenCase> {};

TEST_P(BrokenSolution, GetsExactlyItsFailureClass) {
  const BrokenCase& c = GetParam();
  auto r = run_arena({"-q", "eval", "--task", "cpu/vector_add_f32", "--solution", c.cheat ? redteam(c.file) : broken(c.file), "--no-timing",
                      "--timeout", "3", "--seed", "11"},
                     true);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  ASSERT_TRUE(r.verdict.is_object()) << r.output;
  EXPECT_EQ(r.verdict["summary"]["failure_class"], c.failure_class) << r.output;
  // Every shape is judged, and fails the same way: one failure never stops the others.
  for (const auto& s : r.verdict["shapes"]) {
    EXPECT_EQ(s["status"], "fail");
    EXPECT_EQ(s["failure_class"], c.failure_class) << s["message"];
  }
}

TEST(BrokenWhileTimed, AnInputChangedOnlyDuringTimingIsInputMutated) {
  auto r = run_arena({"-q", "eval", "--task", "cpu/vector_add_f32", "--solution", redteam("mutate_input_when_timed"),
                      "--shape", "n=50000", "--max-time", "0.3", "--seed", "11"},
                     true);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.verdict["summary"]["failure_class"], "input_mutated") << r.output;
  EXPECT_NE(r.verdict["shapes"][0]["message"].get<std::string>().find("during timing"), std::string::npos) << r.output;
}

INSTANTIATE_TEST_SUITE_P(Cpu, BrokenSolution,
                         ::testing::Values(BrokenCase{"wrong_tail", "wrong_values"},
                                           BrokenCase{"nan_output", "nan_inf"},
                                           BrokenCase{"write_past_end", "out_of_bounds", true},
                                           BrokenCase{"mutate_input", "input_mutated", true},
                                           BrokenCase{"segfault", "crash"},
                                           BrokenCase{"exits", "crash"},
                                           BrokenCase{"endless_loop", "timeout"},
                                           BrokenCase{"out_of_memory", "oom"},
                                           BrokenCase{"zero_output", "wrong_values", true},
                                           BrokenCase{"stale_output", "wrong_values", true},
                                           BrokenCase{"nondeterministic", "nondeterministic", true},
                                           BrokenCase{"syntax_error", "compile_error"},
                                           BrokenCase{"wrong_signature", "compile_error"},
                                           BrokenCase{"missing_entry", "compile_error"},
                                           BrokenCase{"forbidden_library", "forbidden_library", true}),
                         [](const auto& info) { return std::string(info.param.file); });

nlohmann::json first_output(const testing::ArenaRun& r) { return r.verdict["shapes"][0]["outputs"][0]; }

TEST(BrokenSolutionDetail, WrongTailIsLocatedInTheTail) {
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", broken("wrong_tail"), "--no-timing", "--seed", "3"}, true);
  auto out = first_output(r);
  EXPECT_EQ(out["where"], "tail");
  EXPECT_EQ(out["mismatches"], 1);
  int64_t n = r.verdict["shapes"][0]["params"]["n"];
  EXPECT_EQ(out["first_mismatch"]["index"], n - 1);
  EXPECT_EQ(out["first_mismatch"]["coords"][0], n - 1);
}

TEST(BrokenSolutionDetail, ZeroOutputIsNamedZeros) {
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", redteam("zero_output"), "--no-timing"}, true);
  EXPECT_EQ(first_output(r)["pattern"], "zeros");
  EXPECT_EQ(first_output(r)["where"], "everywhere");
}

TEST(BrokenSolutionDetail, StaleOutputIsNamedUnwritten) {
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", redteam("stale_output"), "--no-timing"}, true);
  EXPECT_EQ(first_output(r)["pattern"], "unwritten");
  EXPECT_NE(r.verdict["shapes"][0]["message"].get<std::string>().find("stale output"), std::string::npos);
}

TEST(BrokenSolutionDetail, OutOfBoundsNamesTheElementAndTensor) {
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", redteam("write_past_end"), "--no-timing"}, true);
  EXPECT_NE(r.verdict["shapes"][0]["message"].get<std::string>().find("element 0 past the end of 'out'"), std::string::npos)
      << r.verdict["shapes"][0]["message"];
}

TEST(BrokenSolutionDetail, CrashNamesTheSignal) {
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", broken("segfault"), "--no-timing"}, true);
  EXPECT_NE(r.verdict["shapes"][0]["message"].get<std::string>().find("SIGSEGV"), std::string::npos);
}

TEST(BrokenSolutionDetail, WrongSignatureSaysWhatTheSignatureMustBe) {
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", broken("wrong_signature")}, true);
  EXPECT_EQ(r.exit_code, 1);
  std::string log = r.verdict["compile"]["log"];
  EXPECT_NE(log.find("signature does not match"), std::string::npos) << log;
  EXPECT_NE(log.find("void vector_add_f32(const float* a, const float* b, float* out, int64_t n)"), std::string::npos) << log;
}

TEST(BrokenSolutionDetail, MissingEntryPointIsNamed) {
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", broken("missing_entry")}, true);
  std::string log = r.verdict["compile"]["log"];
  EXPECT_NE(log.find("does not define the entry point"), std::string::npos) << log;
}

TEST(BrokenSolutionDetail, PatchedTimerIsFlaggedAndItsSpeedupVoided) {
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", redteam("patched_timer"), "--max-time", "0.3"}, true);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.verdict["summary"]["correct_visible"], true);  // the values are right: only the clock lies
  EXPECT_EQ(r.verdict["summary"]["speedup_voided"], true);
  EXPECT_TRUE(r.verdict["summary"]["geomean_speedup_visible"].is_null());
  ASSERT_FALSE(r.verdict["flags"].empty()) << r.output;
  EXPECT_EQ(r.verdict["flags"][0]["name"], "timer_mismatch");
  EXPECT_NE(r.output.find("voided"), std::string::npos) << r.output;
}

TEST(BrokenSolutionDetail, ForbiddenLibraryNamesTheSymbol) {
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", redteam("forbidden_library")}, true);
  EXPECT_EQ(r.verdict["compile"]["forbidden_symbols"][0], "cblas_saxpy") << r.output;
  EXPECT_NE(r.output.find("calls 'cblas_saxpy', which no library this task allows"), std::string::npos) << r.output;
}

TEST(BrokenSolutionDetail, CompileErrorsAreVerbatimWithTheSolutionsLineNumbers) {
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", broken("syntax_error")}, true);
  std::string log = r.verdict["compile"]["log"];
  EXPECT_NE(log.find("solution.cpp:4"), std::string::npos) << log;
  EXPECT_NE(r.output.find("compile_error"), std::string::npos);
}

}  // namespace
}  // namespace arena
