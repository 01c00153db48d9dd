#include "judge/calibration.hpp"

#include <cstdlib>

namespace arena {

std::vector<CalibrationRow> compare_calibration(const std::map<std::string, std::string>& measured,
                                                const std::optional<DevicePeaks>& peaks) {
  struct Rate {
    const char* key;
    const char* what;
    const char* unit;
    double DevicePeaks::*peak;
  };
  const Rate rates[] = {
      {"memory_gbytes_per_s", "copy bandwidth", "GB/s", &DevicePeaks::memory_gbytes_per_s},
      {"bf16_tflops", "bf16 GEMM", "TFLOP/s", &DevicePeaks::bf16_tflops},
      {"tf32_tflops", "tf32 GEMM", "TFLOP/s", &DevicePeaks::tf32_tflops},
      {"fp32_tflops", "fp32 GEMM", "TFLOP/s", &DevicePeaks::fp32_tflops},
  };
  std::vector<CalibrationRow> rows;
  for (const auto& r : rates) {
    auto m = measured.find(r.key);
    if (m == measured.end()) continue;
    char* end = nullptr;
    double value = std::strtod(m->second.c_str(), &end);
    if (end == m->second.c_str() || *end != '\0') continue;
    CalibrationRow row{r.key, r.what, r.unit, value, std::nullopt, std::nullopt};
    if (peaks && (*peaks).*r.peak > 0) {
      row.peak = (*peaks).*r.peak;
      row.fraction = value / *row.peak;
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace arena
