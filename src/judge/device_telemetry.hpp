// The device's state while it is timed: clocks, temperature, power and the reasons it gives for
// holding its clocks down. Backend-neutral; a GPU backend reads it (CUDA: through NVML), the CPU
// has none. Samples taken while the device slows itself down (power cap, thermal, hardware
// slowdown) measure the cooling, not the kernel: the timing loop sets them aside.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace arena {

struct DeviceTelemetry {
  double sm_clock_mhz = 0;
  double mem_clock_mhz = 0;
  double temperature_c = 0;
  double power_w = 0;
  uint64_t throttle_reasons = 0;  // bits below
};

// Why the clocks are below their maximum: the bit values of NVML's clocks-event (throttle)
// reasons, which the judge uses as its own vocabulary.
namespace throttle {
constexpr uint64_t kGpuIdle = 0x1;
constexpr uint64_t kApplicationsClocksSetting = 0x2;
constexpr uint64_t kSwPowerCap = 0x4;
constexpr uint64_t kHwSlowdown = 0x8;
constexpr uint64_t kSyncBoost = 0x10;
constexpr uint64_t kSwThermalSlowdown = 0x20;
constexpr uint64_t kHwThermalSlowdown = 0x40;
constexpr uint64_t kHwPowerBrakeSlowdown = 0x80;
constexpr uint64_t kDisplayClockSetting = 0x100;
// The reasons that are a real slowdown of a busy device. Idle, the applications-clocks and
// display settings and sync boost are states or configuration, not the device cooling itself.
constexpr uint64_t kSlowdown = kSwPowerCap | kHwSlowdown | kSwThermalSlowdown | kHwThermalSlowdown | kHwPowerBrakeSlowdown;
}  // namespace throttle

// True when `reasons` holds a real slowdown (throttle::kSlowdown).
bool is_slowdown(uint64_t reasons);

// Names of the set bits, in bit order: "gpu_idle", "applications_clocks_setting",
// "sw_power_cap", "hw_slowdown", "sync_boost", "sw_thermal_slowdown", "hw_thermal_slowdown",
// "hw_power_brake_slowdown", "display_clock_setting"; an unknown bit as "0x...".
std::vector<std::string> throttle_reason_names(uint64_t reasons);

// Telemetry over a run of timed calls.
struct TelemetrySummary {
  int readings = 0;             // calls the device reported its state for
  double sm_clock_mhz = 0;      // median
  double mem_clock_mhz = 0;     // median
  double max_temperature_c = 0;
  double power_w = 0;           // median
  std::vector<std::string> throttle_reasons;  // every reason seen, by name
  int slowdown_samples = 0;     // calls timed while the device reported a real slowdown
  int discarded_samples = 0;    // ... of which left out of the statistics (all, unless throttled)
};

// nullopt when there is no reading. `readings` are those of the samples kept; `reasons_seen` is
// the union of every reading's reasons, discarded ones included.
std::optional<TelemetrySummary> summarize_telemetry(const std::vector<DeviceTelemetry>& readings,
                                                    uint64_t reasons_seen, int slowdown_samples,
                                                    int discarded_samples);

// One line for people: "SM 1980 MHz, memory 2619 MHz, 34 °C, 121 W, clocks held by: gpu_idle".
std::string describe_telemetry(const DeviceTelemetry& t);

}  // namespace arena
