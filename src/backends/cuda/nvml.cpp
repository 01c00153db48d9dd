#include "backends/cuda/nvml.hpp"

#include <dlfcn.h>

namespace arena {
namespace {

// The few NVML declarations used here, with the values of NVIDIA's documented API (nvml.h is
// not needed to build).
// NOLINTBEGIN(readability-identifier-naming): NVML's own names
using nvmlReturn_t = int;
using nvmlDevice_t = void*;
constexpr nvmlReturn_t NVML_SUCCESS = 0;
constexpr int NVML_CLOCK_SM = 1;           // nvmlClockType_t
constexpr int NVML_CLOCK_MEM = 2;
constexpr int NVML_TEMPERATURE_GPU = 0;    // nvmlTemperatureSensors_t
// NOLINTEND(readability-identifier-naming)

using InitFn = nvmlReturn_t (*)();
using ShutdownFn = nvmlReturn_t (*)();
using ErrorStringFn = const char* (*)(nvmlReturn_t);
using HandleByPciBusIdFn = nvmlReturn_t (*)(const char*, nvmlDevice_t*);
using ClockInfoFn = nvmlReturn_t (*)(nvmlDevice_t, int, unsigned int*);
using TemperatureFn = nvmlReturn_t (*)(nvmlDevice_t, int, unsigned int*);
using PowerUsageFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned int*);  // milliwatts
using ReasonsFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned long long*);

}  // namespace

struct NvmlDevice::Api {
  InitFn init = nullptr;
  ShutdownFn shutdown = nullptr;
  ErrorStringFn error_string = nullptr;
  HandleByPciBusIdFn handle_by_pci_bus_id = nullptr;
  ClockInfoFn clock_info = nullptr;
  TemperatureFn temperature = nullptr;
  PowerUsageFn power_usage = nullptr;
  ReasonsFn reasons = nullptr;

  std::string describe(nvmlReturn_t r) const {
    const char* s = error_string ? error_string(r) : nullptr;
    return (s ? std::string(s) : std::string("error")) + " (NVML " + std::to_string(r) + ")";
  }
};

NvmlDevice::NvmlDevice(const std::string& pci_bus_id, const std::string& library) {
  if (pci_bus_id.empty()) {
    error_ = "the device's PCI bus id is unknown";
    return;
  }
  library_ = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library_ == nullptr) {
    const char* e = dlerror();
    error_ = "NVML is not installed (" + (e ? std::string(e) : library) + ")";
    return;
  }
  api_ = new Api;
  auto sym = [&](const char* name) { return dlsym(library_, name); };
  api_->init = reinterpret_cast<InitFn>(sym("nvmlInit_v2"));
  api_->shutdown = reinterpret_cast<ShutdownFn>(sym("nvmlShutdown"));
  api_->error_string = reinterpret_cast<ErrorStringFn>(sym("nvmlErrorString"));
  api_->handle_by_pci_bus_id = reinterpret_cast<HandleByPciBusIdFn>(sym("nvmlDeviceGetHandleByPciBusId_v2"));
  api_->clock_info = reinterpret_cast<ClockInfoFn>(sym("nvmlDeviceGetClockInfo"));
  api_->temperature = reinterpret_cast<TemperatureFn>(sym("nvmlDeviceGetTemperature"));
  api_->power_usage = reinterpret_cast<PowerUsageFn>(sym("nvmlDeviceGetPowerUsage"));
  // The newer name first (drivers from R535 on); the older one is the same call.
  api_->reasons = reinterpret_cast<ReasonsFn>(sym("nvmlDeviceGetCurrentClocksEventReasons"));
  if (api_->reasons == nullptr) api_->reasons = reinterpret_cast<ReasonsFn>(sym("nvmlDeviceGetCurrentClocksThrottleReasons"));
  if (!api_->init || !api_->shutdown || !api_->handle_by_pci_bus_id || !api_->clock_info || !api_->temperature ||
      !api_->power_usage || !api_->reasons) {
    error_ = "the NVML library in " + library + " lacks a function the judge needs (driver too old?)";
    return;
  }
  if (nvmlReturn_t r = api_->init(); r != NVML_SUCCESS) {
    error_ = "NVML failed to initialise: " + api_->describe(r);
    return;
  }
  initialised_ = true;
  nvmlDevice_t d = nullptr;
  if (nvmlReturn_t r = api_->handle_by_pci_bus_id(pci_bus_id.c_str(), &d); r != NVML_SUCCESS || d == nullptr) {
    error_ = "NVML does not know the device at PCI bus id " + pci_bus_id + ": " + api_->describe(r);
    return;
  }
  device_ = d;
}

NvmlDevice::~NvmlDevice() {
  if (initialised_) api_->shutdown();
  delete api_;
  if (library_) dlclose(library_);
}

std::optional<DeviceTelemetry> NvmlDevice::read(std::string* why) const {
  auto fail = [&](const std::string& what) -> std::optional<DeviceTelemetry> {
    if (why) *why = what;
    return std::nullopt;
  };
  if (!error_.empty()) return fail(error_);
  DeviceTelemetry t;
  unsigned int sm = 0, mem = 0, temperature = 0, milliwatts = 0;
  unsigned long long reasons = 0;
  if (nvmlReturn_t r = api_->clock_info(device_, NVML_CLOCK_SM, &sm); r != NVML_SUCCESS)
    return fail("nvmlDeviceGetClockInfo(SM): " + api_->describe(r));
  if (nvmlReturn_t r = api_->clock_info(device_, NVML_CLOCK_MEM, &mem); r != NVML_SUCCESS)
    return fail("nvmlDeviceGetClockInfo(MEM): " + api_->describe(r));
  if (nvmlReturn_t r = api_->temperature(device_, NVML_TEMPERATURE_GPU, &temperature); r != NVML_SUCCESS)
    return fail("nvmlDeviceGetTemperature: " + api_->describe(r));
  if (nvmlReturn_t r = api_->power_usage(device_, &milliwatts); r != NVML_SUCCESS)
    return fail("nvmlDeviceGetPowerUsage: " + api_->describe(r));
  if (nvmlReturn_t r = api_->reasons(device_, &reasons); r != NVML_SUCCESS)
    return fail("nvmlDeviceGetCurrentClocksEventReasons: " + api_->describe(r));
  t.sm_clock_mhz = sm;
  t.mem_clock_mhz = mem;
  t.temperature_c = temperature;
  t.power_w = milliwatts / 1000.0;
  t.throttle_reasons = reasons;
  return t;
}

}  // namespace arena
