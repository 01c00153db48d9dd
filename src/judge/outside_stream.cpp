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
    why += std::string(why.empty() ? "" : "; ") + "the stream watch counted " +
           std::to_string(e.off_stream_work) +
           (e.off_stream_work == 1 ? " launch, copy, memset or other stream work"
                                   : " launches, copies, memsets or other stream work") +
           " that can start before the timed window opens: enqueued by the timed calls on streams "
           "not forked from the "
           "given one inside the call, or by a thread of the solution's own outside its calls, or "
           "a context of its own "
           "(first: " +
           (e.first_off_stream.empty() ? "unnamed" : e.first_off_stream) + ")";
  if (!why.empty())
    why +=
        " (enqueue everything on `stream`, or on streams that wait for an event recorded on it in "
        "the call; make "
        "CUDA calls only inside the calls)";
  return why;
}

}  // namespace arena
