#include "judge/window_overhead.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>

#include "core/error.hpp"

namespace arena {
namespace {

struct OverheadRow {
  const char* device;
  double ns;                  // the fixed part
  double reference_empty_ns;  // an empty kernel's whole window in the process that measured it
};

// Measured rows only (bench/timing_quality.py window, in one process: the event window of an
// empty kernel and of the vector_add starter's kernel at five sizes less ncu's gpu__time_duration
// for the same launches, the median of the seven differences; and that process's empty-kernel
// window, 1 block of 128 threads, against which a runner's own is set). A device without a row is
// timed without a correction.
// H200 (2026-12-05, driver 580.159.04): 1.41, 1.47, 1.47, 1.66, 1.79, 1.17, 1.79 us for an empty
// kernel of 1 and of 4096 blocks and the starter's kernel at 262144 .. 67108864 elements
// (2.9-234 us windows): median 1.47 us; empty window 2.85 us.
// H100 SXM (2026-12-05, driver 580.159.04): 1.01, 0.80, 0.93, 1.02, 0.93, 0.77, 0.42 us: median
// 0.93 us; empty window 3.10 us (ten other processes: 3.04-3.26 us, sd 66 ns).
// docs/timing.md, "Accuracy" and "The runner offset".
const std::array<OverheadRow, 2> kOverheads = {{{"H200", 1470, 2850}, {"H100", 928, 3104}}};

const OverheadRow* row_of(const std::string& device_name) {
  for (const auto& r : kOverheads)
    if (device_name.find(r.device) != std::string::npos) return &r;
  return nullptr;
}

}  // namespace

std::optional<double> window_overhead_ns(const std::string& device_name) {
  const OverheadRow* r = row_of(device_name);
  return r ? std::optional<double>(r->ns) : std::nullopt;
}

std::optional<WindowCorrection> window_correction_to_apply(const std::string& device_name) {
  const char* env = std::getenv("ARENA_WINDOW_OVERHEAD_NS");
  if (env == nullptr) {
    const OverheadRow* r = row_of(device_name);
    if (r == nullptr) return std::nullopt;
    return WindowCorrection{r->ns, r->reference_empty_ns};
  }
  const std::string text = env;
  char* end = nullptr;
  const double ns = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !(ns >= 0) || ns > 1e6)
    throw InputError("ARENA_WINDOW_OVERHEAD_NS is '" + text +
                     "': give the event window's fixed part in nanoseconds (0 to 1000000; 0 turns "
                     "the correction off), or unset it to use the device's measured row");
  if (ns == 0) return std::nullopt;
  return WindowCorrection{ns, std::nullopt};
}

double runner_window_overhead_ns(const WindowCorrection& c, std::optional<double> runner_empty_ns) {
  if (!c.reference_empty_ns || !runner_empty_ns) return c.fixed_ns;
  const double deviation = std::clamp(*runner_empty_ns - *c.reference_empty_ns, -kRunnerDeviationLimitNs,
                                      kRunnerDeviationLimitNs);
  return std::max(c.fixed_ns + deviation, 0.0);
}

double kernel_time_ns(double window_ns, double overhead_ns) {
  if (overhead_ns <= 0) return window_ns;
  return std::max(window_ns - overhead_ns, 1.0);
}

}  // namespace arena
