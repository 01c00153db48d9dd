// The roofline: the least time the hardware allows for a call's FLOPs and bytes, from a
// per-device table of peak rates. It gives each timing its fraction of the roofline, and a time
// below the most permissive floor (any precision, any unit) is physically impossible: the
// measurement or the work was faked, and the speedup is not counted.
#pragma once

#include <optional>
#include <string>

#include "core/dtype.hpp"

namespace arena {

// Dense peak rates (no sparsity) of one device, from the vendor's data sheet.
struct DevicePeaks {
  std::string name;
  double memory_gbytes_per_s = 0;  // HBM
  double fp32_tflops = 0;          // CUDA cores
  double tf32_tflops = 0;          // tensor cores
  double bf16_tflops = 0;          // tensor cores (fp16 the same)
  double fp8_tflops = 0;           // tensor cores
  double int8_tops = 0;            // tensor cores
};

// The table row whose name the device's name contains ("NVIDIA H200" -> H200); nullopt when
// the device is not in the table.
std::optional<DevicePeaks> find_device_peaks(const std::string& device_name);

struct Roofline {
  double floor_ns = 0;         // at the task's own precision: max(bytes / bandwidth, flops / rate)
  double fraction = 0;         // floor_ns / measured
  double impossible_below_ns = 0;  // the most permissive floor, with 10 % slack
  bool impossible = false;
};

// `cold`: the caches were evicted before the call, so the bytes came from memory; with warm
// caches the memory floor does not hold and only the compute floor is used.
Roofline compute_roofline(double flops, double bytes, DType dtype, const DevicePeaks& peaks, double measured_ns,
                          bool cold);

}  // namespace arena
