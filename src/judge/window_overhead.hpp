// The event window's fixed part: what a CUDA runner's timed window (start event, launch, stop
// event on a held stream) measures beyond the kernel's own run, the same few hundred nanoseconds
// to a microsecond whatever the kernel (the launch's start-up on the device and the events
// themselves). Nsight Compute's gpu__time_duration does not count it, so a short kernel's event
// time reads well above ncu's (docs/timing.md, "Accuracy"). It is measured per device with
// bench/timing_quality.py window (empty kernels and the vector_add starter at five sizes, the
// runner's window against ncu) and taken off every plain timed call's device time, so that the
// verdict's medians are the kernels' time as ncu reports it.
#pragma once

#include <optional>
#include <string>

namespace arena {

// The measured fixed part (ns) of the event window on the device whose name contains a table
// row's name ("NVIDIA H200" -> H200); nullopt where it was never measured (no correction).
std::optional<double> window_overhead_ns(const std::string& device_name);

// What the judge takes off: ARENA_WINDOW_OVERHEAD_NS where set (a number of nanoseconds; 0 turns
// the correction off, say to compare with raw event times), else the device's row. Throws
// InputError naming the variable when it is set to something that is not a number >= 0.
std::optional<double> window_overhead_to_apply(const std::string& device_name);

// A timed call's device time less the window's fixed part. A window shorter than the fixed part
// (nothing ran on the stream: the work went elsewhere) reads 1 ns, not zero or less, so that the
// verdict still has a time to set against the roofline (impossible_speed) instead of none.
double kernel_time_ns(double window_ns, double overhead_ns);

}  // namespace arena
