#include "judge/roofline.hpp"

#include <algorithm>
#include <array>

#include "judge/device_rows.hpp"

namespace arena {
namespace {

// Dense rates from NVIDIA's data sheets. H200 and H100 SXM share the compute die; the H200 has
// faster, larger HBM. The NVL and PCIe parts run at lower power and clocks (the H100 PCIe also
// with 114 SMs and HBM2e); "H100" and "H200" alone are the SXM parts ("NVIDIA H100 80GB HBM3",
// "NVIDIA H200").
const std::array<DevicePeaks, 5> kPeaks = {{
    {"H200", 4800, 67, 495, 989, 1979, 1979},
    {"H200 NVL", 4800, 60, 418, 835, 1671, 1671},
    {"H100 NVL", 3900, 60, 418, 835, 1671, 1671},
    {"H100 PCIe", 2000, 51, 378, 756, 1513, 1513},
    {"H100", 3350, 67, 495, 989, 1979, 1979},
}};

double rate_tflops(DType dtype, const DevicePeaks& p) {
  switch (dtype) {
    case DType::kFp16:
    case DType::kBf16:
      return p.bf16_tflops;
    case DType::kFp8E4m3:
      return p.fp8_tflops;
    case DType::kInt8:
    case DType::kUint8:
      return p.int8_tops;
    case DType::kFp32:
    case DType::kInt32:
      return p.fp32_tflops;
  }
  return p.fp32_tflops;
}

}  // namespace

std::optional<DevicePeaks> find_device_peaks(const std::string& device_name) {
  const DevicePeaks* p = device_row(kPeaks, device_name, [](const DevicePeaks& r) -> const std::string& { return r.name; });
  if (p == nullptr) return std::nullopt;
  return *p;
}

Roofline compute_roofline(double flops, double bytes, DType dtype, const DevicePeaks& peaks, double measured_ns,
                          bool cold) {
  Roofline r;
  double memory_ns = cold && peaks.memory_gbytes_per_s > 0 ? bytes / peaks.memory_gbytes_per_s : 0;  // GB/s = B/ns
  double compute_ns = flops / (rate_tflops(dtype, peaks) * 1e3);  // TFLOP/s = 1e3 FLOP/ns
  r.floor_ns = std::max(memory_ns, compute_ns);
  r.fraction = measured_ns > 0 ? r.floor_ns / measured_ns : 0;
  double fastest = std::max({peaks.fp8_tflops, peaks.int8_tops, peaks.bf16_tflops, peaks.tf32_tflops, peaks.fp32_tflops});
  r.impossible_below_ns = 0.9 * std::max(memory_ns, flops / (fastest * 1e3));
  r.impossible = measured_ns > 0 && measured_ns < r.impossible_below_ns;
  return r;
}

}  // namespace arena
