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
  if (e.off_stream_work > 0)
    why += std::string(why.empty() ? "" : "; ") + "the timed calls enqueued " + std::to_string(e.off_stream_work) +
           (e.off_stream_work == 1 ? " launch, copy or memset" : " launches, copies or memsets") +
           " on streams not forked from the given one inside the call (first: " +
           (e.first_off_stream.empty() ? "unnamed" : e.first_off_stream) +
           "), which can start before the timed window opens";
  if (!why.empty())
    why += " (enqueue everything on `stream`, or on streams that wait for an event recorded on it in the call)";
  return why;
}

}  // namespace arena
