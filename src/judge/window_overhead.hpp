// The event window's fixed part: what a CUDA runner's timed window (start event, launch, stop
// event on a held stream) measures beyond the kernel's own run, the same few hundred nanoseconds
// to a microsecond whatever the kernel (the launch's start-up on the device and the events
// themselves). Nsight Compute's gpu__time_duration does not count it, so a short kernel's event
// time reads well above ncu's (docs/timing.md, "Accuracy"). It is measured per device with
// bench/timing_quality.py window (empty kernels and the vector_add starter at five sizes, the
// runner's window against ncu) and taken off every plain timed call's device time, so that the
// verdict's medians are the kernels' time as ncu reports it.
//
// Its runner's own part: the fixed part is not quite the same in every process. Measured on an
// H100 (ten processes, docs/timing.md "The runner offset"), a process's empty-kernel window
// differs from the others' by 66 ns (sd), and a short kernel's median in that process by as much,
// in step (correlation 0.8-0.9): the per-runner offset that made identical code read differently
// in two runners. So each runner's empty-kernel window is measured at the start of each timing
// loop, exactly as its calls are timed, and its difference from the empty window of the process
// that measured the device's fixed part is added to the fixed part it has taken off. The difference is bounded
// (kRunnerDeviationLimitNs): the empty launches run in the solution's process, so a solution
// that could slow them and not its own calls would gain at most that much.
#pragma once

#include <optional>
#include <string>

namespace arena {

// The most a runner's own empty window may move its fixed part from the device's, either way.
inline constexpr double kRunnerDeviationLimitNs = 200;
// Empty-kernel windows per runner at the start of a timing loop.
inline constexpr int kEmptyWindowsPerRunner = 30;

struct WindowCorrection {
  double fixed_ns = 0;  // the device's measured fixed part (or ARENA_WINDOW_OVERHEAD_NS)
  // The empty-kernel window (one block of 128 threads, timed as the runner times a call) of the
  // process in which fixed_ns was measured: a runner's own deviation from it is added to
  // fixed_ns. nullopt: the fixed part is the same for every runner (the override is given).
  std::optional<double> reference_empty_ns;
};

// The measured fixed part (ns) of the event window on the device whose name contains a table
// row's name ("NVIDIA H200" -> H200); nullopt where it was never measured (no correction).
std::optional<double> window_overhead_ns(const std::string& device_name);

// What the judge takes off: ARENA_WINDOW_OVERHEAD_NS where set (a number of nanoseconds, the same
// for every runner; 0 turns the correction off, say to compare with raw event times), else the
// device's row with its reference empty window. Throws InputError naming the variable when it is
// set to something that is not a number >= 0.
std::optional<WindowCorrection> window_correction_to_apply(const std::string& device_name);

// The fixed part one runner's calls lose: the device's, moved by how far the runner's median
// empty-kernel window lies from the reference one, at most kRunnerDeviationLimitNs either way.
// `runner_empty_ns` nullopt (not measured): the device's.
double runner_window_overhead_ns(const WindowCorrection& c, std::optional<double> runner_empty_ns);

// A timed call's device time less the window's fixed part. A window shorter than the fixed part
// (nothing ran on the stream: the work went elsewhere) reads 1 ns, not zero or less, so that the
// verdict still has a time to set against the roofline (impossible_speed) instead of none.
double kernel_time_ns(double window_ns, double overhead_ns);

}  // namespace arena
