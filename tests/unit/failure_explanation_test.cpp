#include "judge/failure_explanation.hpp"

#include <gtest/gtest.h>

#include "core/task_loader.hpp"
#include "task_files.hpp"

namespace arena {
namespace {

using testing::TempTask;
using testing::valid_task_yaml;

ShapeVerdict shape(int64_t n, bool correct, FailureClass fc = FailureClass::kNone, const std::string& set = "heldout") {
  ShapeVerdict s;
  s.shape.params["n"] = n;
  s.set = set;
  s.correct = correct;
  s.failure = fc;
  return s;
}

OutputCheck mismatch(int64_t elements, int64_t wrong, int64_t unwritten, const std::string& where, bool only_tail,
                     int64_t first) {
  OutputCheck c;
  c.tensor = "out";
  c.elements = elements;
  c.mismatches = wrong;
  c.unwritten = unwritten;
  c.where = where;
  c.only_tail = only_tail;
  c.first = Mismatch{first, {first}, 0, 1, 1e-6, unwritten > 0};
  return c;
}

class FailureExplanation : public ::testing::Test {
 protected:
  TempTask t_{valid_task_yaml()};  // vadd: a, b, out of n fp32 each, n <= 1e8
  Task task_ = load_task(t_.dir());
  Verdict v_;
  void SetUp() override { v_.compile.ok = true; }
};

TEST_F(FailureExplanation, AnUnwrittenTailIsABoundaryTileNamingTheMultiple) {
  v_.shapes.push_back(shape(1000, true, FailureClass::kNone, "visible"));
  ShapeVerdict s = shape(1001, false, FailureClass::kWrongValues);
  s.outputs = {mismatch(1001, 1, 1, "tail", true, 1000)};
  v_.shapes.push_back(s);
  v_.shapes.push_back(shape(4096, true));
  explain_failures(task_, v_);
  EXPECT_EQ(v_.shapes[1].explanation_kind, "boundary_tiles") << v_.shapes[1].explanation;
  EXPECT_NE(v_.shapes[1].explanation.find("never written"), std::string::npos) << v_.shapes[1].explanation;
  EXPECT_TRUE(v_.shapes[0].explanation.empty()) << "passing shapes get no explanation";
}

TEST_F(FailureExplanation, WrongValuesInsideAreInteriorAndMostlyWrongIsEverywhere) {
  ShapeVerdict a = shape(5000, false, FailureClass::kWrongValues);
  a.outputs = {mismatch(5000, 10, 0, "interior", false, 2500)};
  ShapeVerdict b = shape(333, false, FailureClass::kWrongValues);
  b.outputs = {mismatch(333, 333, 0, "everywhere", false, 0)};
  v_.shapes = {shape(777, true), a, b, shape(100000, true)};
  explain_failures(task_, v_);
  EXPECT_EQ(v_.shapes[1].explanation_kind, "interior");
  EXPECT_EQ(v_.shapes[2].explanation_kind, "everywhere");
}

TEST_F(FailureExplanation, FailingOnlyPastTwoToThe31BytesIsAnIndexOverflow) {
  // fp32 tensors: n = 2^29 elements is 2^31 bytes.
  v_.shapes = {shape(1 << 20, true), shape(int64_t{1} << 28, true), shape((int64_t{1} << 29) + 3, false, FailureClass::kCrash),
               shape(int64_t{1} << 30, false, FailureClass::kCrash)};
  explain_failures(task_, v_);
  for (int i : {2, 3}) {
    EXPECT_EQ(v_.shapes[i].explanation_kind, "index_overflow") << v_.shapes[i].explanation;
    EXPECT_NE(v_.shapes[i].explanation.find("2^31"), std::string::npos) << v_.shapes[i].explanation;
  }
}

TEST_F(FailureExplanation, ACrashOnlyAboveASizeNamesTheThreshold) {
  v_.shapes = {shape(1000, true), shape(50000, true), shape(70000, false, FailureClass::kCrash), shape(60000, true)};
  explain_failures(task_, v_);
  EXPECT_EQ(v_.shapes[2].explanation_kind, "size_threshold") << v_.shapes[2].explanation;
  EXPECT_NE(v_.shapes[2].explanation.find("70000"), std::string::npos);
  EXPECT_NE(v_.shapes[2].explanation.find("60000"), std::string::npos);
}

TEST_F(FailureExplanation, NanInfIsAnUnstableReductionAndNamesTheStress) {
  ShapeVerdict s = shape(4096, false, FailureClass::kNanInf);
  s.magnitude = 100;
  v_.shapes = {shape(4000, true, FailureClass::kNone, "visible"), s};
  explain_failures(task_, v_);
  EXPECT_EQ(v_.shapes[1].explanation_kind, "unstable_reduction");
  EXPECT_NE(v_.shapes[1].explanation.find("100 times larger"), std::string::npos) << v_.shapes[1].explanation;
}

TEST_F(FailureExplanation, AHeldoutSpeedupBelowOneWhereVisibleIsAboveIsACollapse) {
  auto timed = [](ShapeVerdict s, double speedup) {
    Timing t;
    t.speedup = speedup;
    s.timing = t;
    return s;
  };
  v_.shapes = {timed(shape(1000, true, FailureClass::kNone, "visible"), 2.0),
               timed(shape(4000, true, FailureClass::kNone, "visible"), 3.0), timed(shape(1 << 24, true), 0.5),
               timed(shape(1 << 12, true), 1.5)};
  explain_failures(task_, v_);
  EXPECT_EQ(v_.shapes[2].explanation_kind, "performance_collapse");
  EXPECT_TRUE(v_.shapes[3].explanation.empty());
  EXPECT_TRUE(v_.shapes[0].explanation.empty());
}

TEST_F(FailureExplanation, ARefusedLaunchNamesWhatEachKernelAsksFor) {
  v_.device["registers_per_sm"] = "65536";
  v_.compile.log =
      "ptxas info    : Compiling entry function '_Z6scoresPKfPfi' for 'sm_90a'\n"
      "ptxas info    : Function properties for _Z6scoresPKfPfi\n"
      "    0 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"
      "ptxas info    : Used 128 registers, used 1 barriers, 4096 bytes smem\n";
  v_.shapes.push_back(shape(1000, true, FailureClass::kNone, "visible"));
  ShapeVerdict s = shape(100000, false, FailureClass::kLaunchError);
  s.message = "too many resources requested for launch";
  v_.shapes.push_back(s);
  explain_failures(task_, v_);
  const std::string& e = v_.shapes[1].explanation;
  EXPECT_EQ(v_.shapes[1].explanation_kind, "launch_resources") << e;
  EXPECT_NE(e.find("scores(float const*, float*, int): 128 registers per thread (blocks of at most 512 threads), "
                   "4096 bytes of static shared memory, 16 bytes of register spills"),
            std::string::npos)
      << e;
}

TEST_F(FailureExplanation, QuadrantsCountBaselineAgainstCandidate) {
  ShapeVerdict regression = shape(5, false, FailureClass::kWrongValues), both_fail = shape(6, false, FailureClass::kCrash),
               improvement = shape(7, true), both_pass = shape(8, true), unknown = shape(9, true);
  regression.baseline_correct = true;
  both_fail.baseline_correct = false;
  improvement.baseline_correct = false;
  both_pass.baseline_correct = true;
  v_.shapes = {shape(1, true, FailureClass::kNone, "visible"), regression, both_fail, improvement, both_pass, unknown};
  auto g = v_.generalization();
  ASSERT_TRUE(g);
  EXPECT_EQ(g->both_pass, 1);
  EXPECT_EQ(g->regression, 1);
  EXPECT_EQ(g->both_fail, 1);
  EXPECT_EQ(g->improvement, 1);
  EXPECT_EQ(g->baseline_unknown, 1);
  ASSERT_TRUE(g->conditional_correctness);
  EXPECT_DOUBLE_EQ(*g->conditional_correctness, 0.5);
}

}  // namespace
}  // namespace arena
