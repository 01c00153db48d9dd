// The timing loop's samples: calls the device slowed down are set aside, unless they are most of
// them, then all are kept and `throttled` is raised.

#include <gtest/gtest.h>

#include "judge/timing_loop.hpp"

namespace arena {
namespace {

CallOutcome call(uint64_t ns) {
  CallOutcome o;
  o.runner_ns = ns;
  o.host_seconds = ns * 2e-9;
  o.runner_cpu_ns = static_cast<double>(ns);
  o.all_work_ns = ns;
  return o;
}

DeviceTelemetry state(uint64_t reasons, double sm_mhz = 1980) { return {sm_mhz, 2619, 50, 300, reasons}; }

TEST(TimingSamples, WithoutTelemetryEveryCallIsKept) {
  Samples s;
  s.add(call(100));
  s.add(call(110));
  s.finish();
  EXPECT_EQ(s.runner_ns, (std::vector<double>{100, 110}));
  EXPECT_EQ(s.host_ns.size(), 2u);
  ASSERT_EQ(s.cpu.size(), 2u);
  EXPECT_EQ(s.cpu[1].reported_ns, 110);  // each call's CPU figures travel with its time
  EXPECT_EQ(s.cpu[1].process_ns, 110);
  EXPECT_TRUE(s.telemetry.empty());
  EXPECT_EQ(s.discarded, 0);
  EXPECT_FALSE(s.throttled);
}

TEST(TimingSamples, SlowedDownCallsAreSetAsideButIdleOrConfiguredClocksAreNot) {
  Samples s;
  s.add(call(100), state(0));
  s.add(call(300), state(throttle::kSwPowerCap, 1200));
  s.add(call(101), state(throttle::kGpuIdle));
  s.add(call(102), state(throttle::kApplicationsClocksSetting | throttle::kSyncBoost | throttle::kDisplayClockSetting));
  s.add(call(400), state(throttle::kHwThermalSlowdown, 900));
  s.finish();
  EXPECT_EQ(s.runner_ns, (std::vector<double>{100, 101, 102}));
  EXPECT_EQ(s.all_work_ns.size(), 3u);
  EXPECT_EQ(s.telemetry.size(), 3u);
  EXPECT_EQ(s.slowdown, 2);
  EXPECT_EQ(s.discarded, 2);
  EXPECT_FALSE(s.throttled);
  EXPECT_EQ(s.reasons_seen, throttle::kSwPowerCap | throttle::kGpuIdle | throttle::kApplicationsClocksSetting |
                                throttle::kSyncBoost | throttle::kDisplayClockSetting | throttle::kHwThermalSlowdown);
}

TEST(TimingSamples, ExactlyHalfSlowedDownIsStillDiscarded) {
  Samples s;
  s.add(call(100), state(0));
  s.add(call(300), state(throttle::kHwSlowdown));
  s.finish();
  EXPECT_EQ(s.runner_ns, std::vector<double>{100});
  EXPECT_EQ(s.discarded, 1);
  EXPECT_FALSE(s.throttled);
}

TEST(TimingSamples, MostCallsSlowedDownAreKeptAndRaiseThrottled) {
  Samples s;
  s.add(call(100), state(0));
  s.add(call(300), state(throttle::kSwThermalSlowdown, 1100));
  s.add(call(310), state(throttle::kHwPowerBrakeSlowdown, 1000));
  s.finish();
  EXPECT_EQ(s.runner_ns.size(), 3u);
  EXPECT_EQ(s.cpu.size(), 3u);
  EXPECT_EQ(s.telemetry.size(), 3u);
  EXPECT_EQ(s.slowdown, 2);
  EXPECT_EQ(s.discarded, 0);
  EXPECT_TRUE(s.throttled);
  EXPECT_DOUBLE_EQ(s.runner_ns[1] + s.runner_ns[2], 610);
}

TEST(TimingSamples, CopiesOffTheStreamAreCountedOverEveryCallTheSetAsideOnesToo) {
  Samples s;
  CallOutcome clean = call(100);
  clean.work_watched = true;
  CallOutcome copying = call(100);
  copying.work_watched = true;
  copying.off_stream_work = 2;
  copying.off_stream_first = "cudaMemcpyAsync";
  CallOutcome later = copying;
  later.off_stream_first = "cudaMemsetAsync";
  s.add(clean, state(0));
  s.add(copying, state(throttle::kSwPowerCap, 1200));  // set aside: its copies still count
  s.add(later, state(0));
  s.add(call(100));  // not watched (the CPU, --graph)
  s.finish();
  EXPECT_EQ(s.work_watched, 3);
  EXPECT_EQ(s.off_stream_work, 4u);
  EXPECT_EQ(s.off_stream_first, "cudaMemcpyAsync");  // the first one's name
}

}  // namespace
}  // namespace arena
