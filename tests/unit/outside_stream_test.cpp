// The work_outside_stream check's two witnesses: host time until the device was idle, and
// launches, copies or memsets seen on streams not forked from the given one.
#include "judge/outside_stream.hpp"

#include <gtest/gtest.h>

namespace arena {
namespace {

OutsideStreamEvidence evidence(double window_ns, double all_work_ns, uint64_t copies = 0,
                               std::string first = "") {
  OutsideStreamEvidence e;
  e.window_median_ns = window_ns;
  e.all_work_median_ns = all_work_ns;
  e.off_stream_work = copies;
  e.first_off_stream = std::move(first);
  return e;
}

TEST(OutsideStream, HostTimeWithinTheSlackIsNothing) {
  EXPECT_EQ(work_outside_stream(evidence(10e3, 60e3)), "");  // 1.5 x 10 us + 50 us = 65 us
  EXPECT_EQ(work_outside_stream(evidence(1e6, 1.5e6 + 50e3)), "");
}

TEST(OutsideStream, HostTimeBeyondTheSlackNamesBothTimes) {
  const std::string why = work_outside_stream(evidence(10e3, 70e3));
  EXPECT_NE(why.find("10000 ns"), std::string::npos) << why;
  EXPECT_NE(why.find("70000 ns"), std::string::npos) << why;
  EXPECT_NE(why.find("enqueue everything on `stream`"), std::string::npos) << why;
}

TEST(OutsideStream, WorkOffTheStreamIsFlaggedWhateverTheClocksSay) {
  const std::string one = work_outside_stream(evidence(10e3, 20e3, 1, "cudaMemcpyAsync"));
  EXPECT_NE(one.find("1 launch, copy, memset or other stream work"), std::string::npos) << one;
  EXPECT_NE(one.find("first: cudaMemcpyAsync"), std::string::npos) << one;
  EXPECT_EQ(one.find("device was busy"), std::string::npos) << one;
  const std::string both = work_outside_stream(evidence(10e3, 90e3, 48, "cuMemsetD8Async"));
  EXPECT_NE(both.find("device was busy"), std::string::npos) << both;
  EXPECT_NE(both.find("48 launches, copies, memsets or other stream work"), std::string::npos) << both;
}

}  // namespace
}  // namespace arena
