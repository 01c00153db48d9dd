#include "judge/window_overhead.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "judge/device_rows.hpp"

namespace arena {
namespace {

struct OverheadRow {
  const char* device;
  double ns;
};

// Measured rows only (bench/timing_quality.py window: the event window of an empty kernel and of
// the vector_add starter's kernel at five sizes less ncu's gpu__time_duration for the same
// launches, the median of the seven differences). A device without a row is timed without a
// correction.
// H200 (2026-12-05, driver 580.159.04): 1.41, 1.47, 1.47, 1.66, 1.79, 1.17, 1.79 us for an empty
// kernel of 1 and of 4096 blocks and the starter's kernel at 262144 .. 67108864 elements
// (2.9-234 us windows): median 1.47 us.
// H100 SXM (2026-12-05, driver 580.159.04): 1.01, 0.80, 0.93, 1.02, 0.93, 0.77, 0.42 us (3.1-288
// us windows): median 0.93 us. docs/timing.md, "Accuracy". Keyed by the measured part's whole
// name (measured_device_row): an H100 NVL or PCIe, an H200 NVL (other clocks, SM counts, power)
// has no row.
const std::array<OverheadRow, 2> kOverheads = {{{"NVIDIA H200", 1470}, {"NVIDIA H100 80GB HBM3", 928}}};

}  // namespace

std::optional<double> window_overhead_ns(const std::string& device_name) {
  const OverheadRow* r = measured_device_row(kOverheads, device_name, [](const OverheadRow& row) { return row.device; });
  if (r == nullptr) return std::nullopt;
  return r->ns;
}

std::optional<double> window_overhead_to_apply(const std::string& device_name) {
  const char* env = std::getenv("ARENA_WINDOW_OVERHEAD_NS");
  if (env == nullptr) return window_overhead_ns(device_name);
  const std::string text = env;
  char* end = nullptr;
  const double ns = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !(ns >= 0) || ns > 1e6)
    throw InputError("ARENA_WINDOW_OVERHEAD_NS is '" + text +
                     "': give the event window's fixed part in nanoseconds (0 to 1000000; 0 turns "
                     "the correction off), or unset it to use the device's measured row");
  if (ns == 0) return std::nullopt;
  return ns;
}

double kernel_time_ns(double window_ns, double overhead_ns) {
  if (overhead_ns <= 0) return window_ns;
  return std::max(window_ns - overhead_ns, 1.0);
}

}  // namespace arena
