// NVML, the driver's management library, loaded at run time (dlopen of libnvidia-ml.so.1): the
// build needs no nvml.h and no NVML at all, and a machine without it simply has no telemetry.
// The device is found by PCI bus id, so it is the same GPU as the CUDA device index (NVML's own
// indices ignore CUDA_VISIBLE_DEVICES and may be ordered differently).
#pragma once

#include <optional>
#include <string>

#include "judge/device_telemetry.hpp"

namespace arena {

class NvmlDevice {
 public:
  // Loads `library`, initialises NVML and looks up the device at `pci_bus_id` ("0000:3b:00.0",
  // as cudaDeviceGetPCIBusId writes it). Never throws: on failure error() says why.
  explicit NvmlDevice(const std::string& pci_bus_id, const std::string& library = "libnvidia-ml.so.1");
  ~NvmlDevice();
  NvmlDevice(const NvmlDevice&) = delete;
  NvmlDevice& operator=(const NvmlDevice&) = delete;

  // "" when the device was found.
  const std::string& error() const { return error_; }

  // The device's state now; nullopt when any query fails, with `why` (if given) saying which.
  std::optional<DeviceTelemetry> read(std::string* why = nullptr) const;

 private:
  struct Api;
  void* library_ = nullptr;
  Api* api_ = nullptr;
  void* device_ = nullptr;  // nvmlDevice_t
  bool initialised_ = false;
  std::string error_;
};

}  // namespace arena
