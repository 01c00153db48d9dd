#include "judge/timer_check.hpp"

#include <gtest/gtest.h>

namespace arena {
namespace {

// reported, process, caller, gone (ns; negative: unknown)
CallCpu call(double reported, double process, double caller = -1, double gone = -1) {
  return {reported, process, caller, gone};
}

TEST(TimerCheck, AnHonestSingleThreadedCallPasses) {
  // 1 ms reported, 1.01 ms of CPU time on the calling thread (the request's handling included).
  EXPECT_TRUE(check_reported_time(call(1e6, 1.01e6, 1.01e6, 0), 1, 2).plausible);
}

TEST(TimerCheck, AnHonestParallelCallPasses) {
  // Four pool threads busy for 1 ms on a four-core machine: 4 ms of CPU time, 1 ms of it the
  // caller's.
  EXPECT_TRUE(check_reported_time(call(1e6, 4e6, 1e6, 0), 4, 4).plausible);
}

TEST(TimerCheck, AClockThatUnderReportsIsCaughtByTheCallersCpuTime) {
  // One thread on 64 cores: the caller's own CPU time is the bound, however many cores.
  TimerCheck c = check_reported_time(call(0.25e6, 1e6, 1e6, 0), 1, 64);
  EXPECT_FALSE(c.plausible);
  EXPECT_DOUBLE_EQ(c.lower_bound_ns, 1e6);
}

TEST(TimerCheck, TheProcessCpuTimeOverTheCoresIsABoundWhateverElseIsUnknown) {
  // The caller's figure unknown (it was still running when read), threads may have gone:
  // 1 ms of CPU time on 2 cores is at least 0.5 ms of wall time.
  EXPECT_FALSE(check_reported_time(call(0.1e6, 1e6), 64, 2).plausible);
  EXPECT_TRUE(check_reported_time(call(0.5e6, 1e6), 64, 2).plausible);
}

TEST(TimerCheck, WorkHandedToAPoolIsBoundedByThePoolsSize) {
  // The caller sleeps while two pool threads work 1 ms each (2 ms of CPU time) on 64 cores;
  // both are still there after the call: at least 1 ms of wall time.
  EXPECT_FALSE(check_reported_time(call(0.25e6, 2e6, 5e3, 0), 2, 64).plausible);
  EXPECT_TRUE(check_reported_time(call(1e6, 2e6, 5e3, 0), 2, 64).plausible);
}

TEST(TimerCheck, ThreadsJoinedWithinTheCallMayUseEveryCore) {
  // Four threads started and joined in each 1 ms call on four cores: 4 ms of CPU time, 3.9 ms
  // of it on threads gone after the call, one thread left to count.
  EXPECT_TRUE(check_reported_time(call(1e6, 4e6, 0.1e6, 3.9e6), 1, 4).plausible);
  // Counted as if no thread had gone, the same call would read as a 4x slow clock.
  EXPECT_FALSE(check_reported_time(call(1e6, 4e6, 0.1e6, 0), 1, 4).plausible);
}

TEST(TimerCheck, ALittleCpuTimeOfGoneThreadsIsSlackNotAJoin) {
  // Per-thread figures lag a running thread by up to a tick: 30 us unaccounted of 1 ms is no join.
  EXPECT_FALSE(check_reported_time(call(0.25e6, 1e6, -1, 30e3), 1, 64).plausible);
}

TEST(TimerCheck, ATinyCallsRequestHandlingIsNotReadAsAnUnderReport) {
  // A 1.5 us call whose request cost the runner 35 us of CPU time on a loaded two-core machine.
  EXPECT_TRUE(check_reported_time(call(1.5e3, 35e3, 35e3, 0), 1, 2).plausible);
}

TEST(TimerCheck, UnknownCpuTimeChecksNothing) {
  EXPECT_TRUE(check_reported_time(call(1, -1, -1, -1), 1, 2).plausible);
}

TEST(TimerCheck, MostCallsUnderReportedAreCaught) {
  // A clock that reports a quarter of most calls' time, on one thread of a 16-core machine.
  std::vector<CallCpu> calls = {call(0.25e6, 1e6, 1e6, 0), call(0.25e6, 1e6, 1e6, 0),
                                call(0.25e6, 1e6, 1e6, 0), call(1e6, 1e6, 1e6, 0)};
  TimerCheck c = check_reported_times(calls, 1, 16);
  EXPECT_FALSE(c.plausible);
  EXPECT_DOUBLE_EQ(c.lower_bound_ns, 1e6);
}

TEST(TimerCheck, AFewOddCallsAreNoMismatch) {
  // One call in three whose CPU time a preempted request inflated: not most of them.
  std::vector<CallCpu> calls = {call(1e6, 1e6, 1e6, 0), call(1e6, 3e6, 3e6, 0),
                                call(1e6, 1e6, 1e6, 0)};
  EXPECT_TRUE(check_reported_times(calls, 1, 2).plausible);
}

TEST(TimerCheck, CallsOfUnknownCpuTimeAreLeftOut) {
  EXPECT_TRUE(check_reported_times({call(1, -1), call(1, -1)}, 1, 2).plausible);
  // One known call, under-reported: that is all there is to go by.
  EXPECT_FALSE(check_reported_times({call(0.1e6, 1e6, 1e6, 0), call(1, -1)}, 1, 2).plausible);
}

}  // namespace
}  // namespace arena
