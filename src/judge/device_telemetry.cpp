#include "judge/device_telemetry.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <sstream>

#include "judge/sample_stats.hpp"

namespace arena {
namespace {

struct ReasonName {
  uint64_t bit;
  const char* name;
};

constexpr std::array<ReasonName, 9> kReasonNames = {{
    {throttle::kGpuIdle, "gpu_idle"},
    {throttle::kApplicationsClocksSetting, "applications_clocks_setting"},
    {throttle::kSwPowerCap, "sw_power_cap"},
    {throttle::kHwSlowdown, "hw_slowdown"},
    {throttle::kSyncBoost, "sync_boost"},
    {throttle::kSwThermalSlowdown, "sw_thermal_slowdown"},
    {throttle::kHwThermalSlowdown, "hw_thermal_slowdown"},
    {throttle::kHwPowerBrakeSlowdown, "hw_power_brake_slowdown"},
    {throttle::kDisplayClockSetting, "display_clock_setting"},
}};

std::string hex_bit(uint64_t bit) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(bit));
  return buf;
}

}  // namespace

bool is_slowdown(uint64_t reasons) { return (reasons & throttle::kSlowdown) != 0; }

std::vector<std::string> throttle_reason_names(uint64_t reasons) {
  std::vector<std::string> names;
  for (int i = 0; i < 64; ++i) {
    uint64_t bit = uint64_t{1} << i;
    if ((reasons & bit) == 0) continue;
    auto known = std::find_if(kReasonNames.begin(), kReasonNames.end(), [bit](const ReasonName& r) { return r.bit == bit; });
    names.push_back(known != kReasonNames.end() ? known->name : hex_bit(bit));
  }
  return names;
}

std::optional<TelemetrySummary> summarize_telemetry(const std::vector<DeviceTelemetry>& readings,
                                                    uint64_t reasons_seen, int slowdown_samples,
                                                    int discarded_samples) {
  if (readings.empty()) return std::nullopt;
  std::vector<double> sm, mem, power;
  TelemetrySummary s;
  s.readings = static_cast<int>(readings.size());
  s.max_temperature_c = readings.front().temperature_c;
  for (const auto& r : readings) {
    sm.push_back(r.sm_clock_mhz);
    mem.push_back(r.mem_clock_mhz);
    power.push_back(r.power_w);
    s.max_temperature_c = std::max(s.max_temperature_c, r.temperature_c);
    reasons_seen |= r.throttle_reasons;
  }
  s.sm_clock_mhz = summarize(sm).median;
  s.mem_clock_mhz = summarize(mem).median;
  s.power_w = summarize(power).median;
  s.throttle_reasons = throttle_reason_names(reasons_seen);
  s.slowdown_samples = slowdown_samples;
  s.discarded_samples = discarded_samples;
  return s;
}

std::string describe_telemetry(const DeviceTelemetry& t) {
  std::ostringstream s;
  s << "SM " << t.sm_clock_mhz << " MHz, memory " << t.mem_clock_mhz << " MHz, " << t.temperature_c << " °C, "
    << t.power_w << " W, clocks held by: ";
  auto names = throttle_reason_names(t.throttle_reasons);
  if (names.empty()) s << "nothing";
  for (size_t i = 0; i < names.size(); ++i) s << (i ? ", " : "") << names[i];
  return s.str();
}

}  // namespace arena
