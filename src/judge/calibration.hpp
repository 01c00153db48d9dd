// Calibration: what the device measured (arena device --calibrate) set against the peak table's
// data-sheet rates, one row per rate, with the fraction of the peak reached.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "judge/roofline.hpp"

namespace arena {

struct CalibrationRow {
  std::string key;              // the measurement's key: "memory_gbytes_per_s", "bf16_tflops"...
  std::string what;             // for people: "copy bandwidth", "bf16 GEMM"...
  std::string unit;             // "GB/s" | "TFLOP/s"
  double measured = 0;
  std::optional<double> peak;   // the peak table's rate; nullopt without a row for the device
  std::optional<double> fraction;  // measured / peak
};

// The rows for the rates present (and numeric) in `measured`, in a fixed order: memory, bf16,
// tf32, fp32.
std::vector<CalibrationRow> compare_calibration(const std::map<std::string, std::string>& measured,
                                                const std::optional<DevicePeaks>& peaks);

}  // namespace arena
