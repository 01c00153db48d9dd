#include "judge/runner_offset.hpp"

#include <array>
#include <cmath>

#include "judge/device_rows.hpp"
#include "judge/timed_runners.hpp"

namespace arena {
namespace {

struct OffsetRow {
  const char* device;
  double sd_ns;
};

// H200: 2026-12-03, `bench/timing_quality.py aa --runs 5 --max-time 1`, cold L2, the
// vector_add_f32 (n = 1000003, 4194304) and prefix_sum_i32 (n = 1, 65537) starters against
// themselves, twice each (40 evals, 4-16 us medians): per row sd(speedup) with the within-eval
// part (the claimed CI) taken out, times median / sqrt(2); the root mean square of the 8 rows is
// 123 ns (single rows 0-270 ns: more for the multi-launch scan).
// H100 SXM: 2026-12-05, the same measure on vector_add_f32 (n = 1000003, 4194304), 6 runs a row,
// three rounds, with the timed calls moving through 8 placements (judge/placements.hpp): rows of
// 64, 24, 83 ns (6 us) and 55, 0, 81 ns (17 us), root mean square 59 ns (docs/timing.md).
// Keyed by the measured part's own name, as the window overhead's rows.
const std::array<OffsetRow, 2> kOffsets = {{{"NVIDIA H200", 120}, {"NVIDIA H100 80GB HBM3", 60}}};

}  // namespace

std::optional<double> runner_offset_sd_ns(const std::string& device_name) {
  const OffsetRow* r = measured_device_row(kOffsets, device_name, [](const OffsetRow& row) { return row.device; });
  if (r == nullptr) return std::nullopt;
  return r->sd_ns;
}

double runner_offset_uncertainty(double sd_ns, double candidate_ns, double baseline_ns, int candidate_runners,
                                 int baseline_runners) {
  if (sd_ns <= 0 || candidate_ns <= 0 || baseline_ns <= 0) return 0;
  // log(speedup) = log(b) - log(c); each median carries the mean of its runners' offsets, of
  // sd_ns / sqrt(runners): relative sd that over the median each, independent.
  return 1.96 * std::hypot(offset_sd_over_runners(sd_ns, candidate_runners) / candidate_ns,
                           offset_sd_over_runners(sd_ns, baseline_runners) / baseline_ns);
}

}  // namespace arena
