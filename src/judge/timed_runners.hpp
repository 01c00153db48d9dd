// Timed runners: how many runner processes each timed side is spread over within one eval.
//
// Identical code timed in two runner processes differs by more than either median's confidence
// interval says, and more samples in one process do not shrink it: the runner offset
// (judge/runner_offset.hpp, ~60 ns sd on an H100, ~120 ns on an H200; neither a stream's, an
// event's, a CPU's nor the buffers' place: docs/timing.md). It decides the repeatability of
// kernels of a few microseconds. A side whose timed pairs go to k runners in turn (each its own
// process, loaded with the same solution, with its own region and device buffer, warmed up
// once) has a median over k processes' offsets: their part of the spread shrinks by sqrt(k).
// The cost is k - 1 more runner starts per side (started ahead of need, beside the others) and
// k device buffers per side (the placements are shared out among them: judge/placements.hpp).
#pragma once

namespace arena {

constexpr int kMaxTimedRunners = 8;

// ARENA_TIMED_RUNNERS where set (1 to kMaxTimedRunners; 1: one runner per side), else
// `backend_default` (Backend::timed_runners). InputError naming the variable when malformed.
int wanted_timed_runners(int backend_default);

// The runner offset's standard deviation left in a median over `runners` runners' samples.
double offset_sd_over_runners(double sd_ns, int runners);

}  // namespace arena
