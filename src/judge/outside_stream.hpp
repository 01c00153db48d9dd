// The work_outside_stream check: did the candidate's timed calls do work the events on the
// stream the judge gave could not see? Two witnesses: the host's time from the call until the
// whole device was idle, against the event window; and (CUDA) what the runner's stream watch
// counted (backends/cuda/stream_watch.hpp): launches, copies, memsets and other stream work the
// calls enqueued on streams not forked from the judge's inside the call, which can start before
// the window opens (copies on the copy engines at once, kernels as the hold's blocks leave), work
// a thread of the solution's own enqueued outside its calls, contexts of its own.
#pragma once

#include <cstdint>
#include <string>

namespace arena {

struct OutsideStreamEvidence {
  double window_median_ns = 0;     // the candidate's median event window
  double all_work_median_ns = 0;   // ... and the median host time until the device was idle
  uint64_t off_stream_work = 0;    // what the stream watch counted over all timed calls
  std::string first_off_stream;          // the first one's function name
};

// How much longer than the window the device may stay busy before it counts: the host's wait and
// wake-up around a short window take tens of microseconds.
inline constexpr double kAllWorkFactor = 1.5;
inline constexpr double kAllWorkSlackNs = 50e3;

// "" where nothing points outside the stream; else the flag's message, naming each witness.
std::string work_outside_stream(const OutsideStreamEvidence& e);

}  // namespace arena
