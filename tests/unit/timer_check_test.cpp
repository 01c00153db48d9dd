#include "judge/timer_check.hpp"

#include <gtest/gtest.h>

namespace arena {
namespace {

TEST(TimerCheck, AnHonestSingleThreadedCallPasses) {
  // 1 ms reported, 1.01 ms of CPU time (the request's handling included).
  EXPECT_TRUE(check_reported_time(1e6, 1.01e6, 1, 2).plausible);
}

TEST(TimerCheck, AnHonestParallelCallPasses) {
  // Four threads busy for 1 ms on a four-core machine: 4 ms of CPU time.
  EXPECT_TRUE(check_reported_time(1e6, 4e6, 4, 4).plausible);
}

TEST(TimerCheck, AClockThatUnderReportsIsCaught) {
  TimerCheck c = check_reported_time(0.3e6, 1e6, 1, 2);
  EXPECT_FALSE(c.plausible);
  EXPECT_DOUBLE_EQ(c.lower_bound_ns, 1e6);
}

TEST(TimerCheck, ExtraThreadsCannotLoosenTheBoundBeyondTheCores) {
  // 64 idle threads on 2 cores: 1 ms of CPU time still means at least 0.5 ms of wall time.
  EXPECT_FALSE(check_reported_time(0.1e6, 1e6, 64, 2).plausible);
  EXPECT_TRUE(check_reported_time(0.5e6, 1e6, 64, 2).plausible);
}

TEST(TimerCheck, ThreadsJoinedWithinTheCallMayUseEveryCore) {
  // Four threads started and joined in each 1 ms call on four cores: 4 ms of CPU time, one
  // thread left to count, 1.1 ms on the judge's clock around the request.
  EXPECT_TRUE(check_reported_time(1e6, 4e6, 1, 4, 1.1e6).plausible);
  // Without the judge's clock the count is all there is to go by.
  EXPECT_FALSE(check_reported_time(1e6, 4e6, 1, 4).plausible);
}

TEST(TimerCheck, ASingleThreadedClockThatRunsSlowIsCaughtOnManyCores) {
  // The patched clock of tests/redteam/cpu/patched_timer.cpp (4x slow) on a 16-core machine: the
  // CPU time is no more than the wall time around the request, so one thread it is.
  EXPECT_FALSE(check_reported_time(0.25e6, 1e6, 1, 16, 1.02e6).plausible);
}

TEST(TimerCheck, ATinyCallsRequestHandlingIsNotReadAsAnUnderReport) {
  // A 1.5 us call whose request cost the runner 35 us of CPU time on a loaded two-core machine.
  EXPECT_TRUE(check_reported_time(1.5e3, 35e3, 1, 2, 60e3).plausible);
}

TEST(TimerCheck, UnknownCpuTimeChecksNothing) {
  EXPECT_TRUE(check_reported_time(1, -1, 1, 2).plausible);
}

TEST(TimerCheck, EachCallIsCheckedWithItsOwnFigures) {
  // Threads started and joined in each call, on two cores: where the other core was free they
  // ran side by side (more CPU time than wall time), where it was busy one after another. Each
  // call alone is plausible.
  std::vector<double> reported = {1.0e6, 1.0e6, 2.0e6, 2.0e6, 1.0e6};
  std::vector<double> cpu = {1.9e6, 1.9e6, 2.0e6, 2.0e6, 1.9e6};
  std::vector<double> host = {1.05e6, 1.05e6, 2.1e6, 2.1e6, 1.05e6};
  EXPECT_TRUE(check_reported_times(reported, cpu, host, 1, 2).plausible);
}

TEST(TimerCheck, MostCallsUnderReportedAreCaught) {
  // A clock that reports a quarter of every call's time, on one thread of a 16-core machine.
  std::vector<double> reported = {0.25e6, 0.25e6, 0.25e6, 1.0e6};
  std::vector<double> cpu = {1e6, 1e6, 1e6, 1e6};
  std::vector<double> host = {1.02e6, 1.02e6, 1.02e6, 1.02e6};
  TimerCheck c = check_reported_times(reported, cpu, host, 1, 16);
  EXPECT_FALSE(c.plausible);
  EXPECT_DOUBLE_EQ(c.lower_bound_ns, 1e6);
}

TEST(TimerCheck, AFewOddCallsAreNoMismatch) {
  // One call in three whose CPU time a preempted request inflated: not most of them.
  std::vector<double> reported = {1e6, 1e6, 1e6};
  std::vector<double> cpu = {1e6, 3e6, 1e6};
  std::vector<double> host = {1.02e6, 1.1e6, 1.02e6};
  EXPECT_TRUE(check_reported_times(reported, cpu, host, 1, 2).plausible);
}

TEST(TimerCheck, CallsOfUnknownCpuTimeAreLeftOut) {
  EXPECT_TRUE(check_reported_times({1, 1}, {-1, -1}, {}, 1, 2).plausible);
  // One known call, under-reported: that is all there is to go by.
  EXPECT_FALSE(check_reported_times({0.1e6, 1}, {1e6, -1}, {1.02e6, 1}, 1, 2).plausible);
}

}  // namespace
}  // namespace arena
