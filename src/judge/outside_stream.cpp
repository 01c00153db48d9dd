#include "judge/outside_stream.hpp"

#include <cmath>

namespace arena {
namespace {

std::string ns_text(double ns) {
  return std::to_string(std::llround(ns)) + " ns";
}

}  // namespace

std::string work_outside_stream(const OutsideStreamEvidence& e) {
  std::string why;
  if (e.all_work_median_ns > kAllWorkFactor * e.window_median_ns + kAllWorkSlackNs)
    why = "the timed window on the given stream was " + ns_text(e.window_median_ns) +
          " but the device was busy for " + ns_text(e.all_work_median_ns) +
          ": work ran outside the stream the judge times";
  if (e.off_stream_copies > 0)
    why += std::string(why.empty() ? "" : "; ") + "the timed calls enqueued " +
           std::to_string(e.off_stream_copies) +
           (e.off_stream_copies == 1 ? " copy or memset" : " copies or memsets") +
           " on a stream other than the one given (first: " +
           (e.first_copy.empty() ? "unnamed" : e.first_copy) +
           "), which the copy engines run before the timed window opens";
  if (!why.empty()) why += " (enqueue everything on `stream`)";
  return why;
}

}  // namespace arena
