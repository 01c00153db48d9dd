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

TEST(TimerCheck, UnknownCpuTimeChecksNothing) {
  EXPECT_TRUE(check_reported_time(1, -1, 1, 2).plausible);
}

}  // namespace
}  // namespace arena
