// The runner offset: identical code timed in two runner processes (an A/A eval, the solution
// against itself) differs by more than either median's confidence interval says. Within one eval
// the medians converge; across evals, each with its own pair of runners, the ratio of identical
// code still spreads (docs/timing.md, "Candidate against an identical baseline"). The spread
// behaves like a fixed offset per runner process, about the same in nanoseconds whatever the
// kernel's length, so it matters for short kernels: more samples within one eval do not shrink it.
// Its standard deviation is measured per device (bench/timing_quality.py aa) and folded into the
// speedup's uncertainty, so that an `improved` outcome means faster beyond what two runners of
// the same code would show.
#pragma once

#include <optional>
#include <string>

namespace arena {

// The measured standard deviation (ns) of one runner's offset on the device whose name contains
// a table row's name ("NVIDIA H200" -> H200); nullopt where it was never measured.
std::optional<double> runner_offset_sd_ns(const std::string& device_name);

// The relative half-width (95 %) that the runners' offsets, `sd_ns` each, add to the speedup
// of a candidate median `candidate_ns` over a baseline median `baseline_ns`, each side's median
// over that many runners (judge/timed_runners.hpp: the offset's part shrinks by their root).
double runner_offset_uncertainty(double sd_ns, double candidate_ns, double baseline_ns, int candidate_runners = 1,
                                 int baseline_runners = 1);

}  // namespace arena
