// Placements: where in device memory a timed lane's tensors lie. The same kernel on two buffers
// of the same size at different addresses does not take the same time: on an H100, vector_add at
// n = 4194304 read ~130 ns (0.7 %) slower in one of four cudaMalloc'd regions, in every one of
// ten processes (the allocator hands out the same places each time), and `timing_quality.py aa`
// found the identical baseline 1.4 % slower than the candidate in 12 evals of 12
// (docs/timing.md, "Placements"). A side that keeps one place for the whole eval keeps its
// luck. So a timed lane's buffer holds its region several times over, each copy on pages of its
// own, and every pair of timed calls runs on the next one: both sides' medians are over the
// same number of places, and what a place adds averages out instead of deciding a speedup.
#pragma once

#include <cstdint>

namespace arena {

// The device's large page: placements this far apart share no page.
constexpr uint64_t kPlacementAlignment = uint64_t{2} << 20;
// What one lane's placements may take together; a region larger than half of it gets one.
constexpr uint64_t kPlacementBudgetBytes = uint64_t{1} << 30;
constexpr int kDefaultPlacements = 8;
constexpr int kMaxPlacements = 64;

// Where placement j + 1 starts after placement j: the region rounded up to the alignment.
uint64_t placement_stride(uint64_t region_bytes);

// How many placements a timed lane gets for a region of `region_bytes`: `wanted`, fewer where
// they would take more than the budget, at least 1.
int placements_for(uint64_t region_bytes, int wanted);

// ARENA_PLACEMENTS where set (1 to 64; 1 turns rotation off), else kDefaultPlacements.
// InputError naming the variable when it is malformed.
int wanted_placements();

}  // namespace arena
