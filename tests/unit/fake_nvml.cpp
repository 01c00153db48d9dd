// A stand-in for libnvidia-ml.so.1 with the few functions the judge loads, for the NVML unit
// test on machines without a GPU. It knows one device, at PCI bus id 0000:3b:00.0, and only the
// older name of the throttle-reason query (so the fallback is what is tested here).

#include <cstring>

namespace {
int g_device = 42;       // what a handle points to
int g_power_error = 0;   // nonzero: nvmlDeviceGetPowerUsage fails with this code
}  // namespace

extern "C" {

int nvmlInit_v2() { return 0; }
int nvmlShutdown() { return 0; }
const char* nvmlErrorString(int r) { return r == 13 ? "Not Supported" : "Unknown Error"; }

int nvmlDeviceGetHandleByPciBusId_v2(const char* bus_id, void** device) {
  if (std::strcmp(bus_id, "0000:3b:00.0") != 0) return 6;  // NVML_ERROR_NOT_FOUND
  *device = &g_device;
  return 0;
}

int nvmlDeviceGetClockInfo(void* device, int type, unsigned int* mhz) {
  if (device != &g_device) return 2;
  if (type == 1) *mhz = 1980;  // SM
  else if (type == 2) *mhz = 2619;  // memory
  else return 2;
  return 0;
}

int nvmlDeviceGetTemperature(void* device, int sensor, unsigned int* c) {
  if (device != &g_device || sensor != 0) return 2;
  *c = 71;
  return 0;
}

int nvmlDeviceGetPowerUsage(void* device, unsigned int* milliwatts) {
  if (device != &g_device) return 2;
  if (g_power_error) return g_power_error;
  *milliwatts = 612345;
  return 0;
}

int nvmlDeviceGetCurrentClocksThrottleReasons(void* device, unsigned long long* reasons) {
  if (device != &g_device) return 2;
  *reasons = 0x4 | 0x1;  // sw power cap, idle
  return 0;
}

// For the test: make the power query fail.
void fake_nvml_set_power_error(int code) { g_power_error = code; }

}  // extern "C"
