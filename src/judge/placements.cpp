#include "judge/placements.hpp"

#include <algorithm>
#include <string>

#include "core/int_env.hpp"

namespace arena {

uint64_t placement_stride(uint64_t region_bytes) {
  return (std::max<uint64_t>(region_bytes, 1) + kPlacementAlignment - 1) / kPlacementAlignment *
         kPlacementAlignment;
}

int placements_for(uint64_t region_bytes, int wanted) {
  const uint64_t fit = kPlacementBudgetBytes / placement_stride(region_bytes);
  return static_cast<int>(std::clamp<uint64_t>(
      std::min<uint64_t>(fit, static_cast<uint64_t>(std::max(wanted, 1))), 1, kMaxPlacements));
}

int wanted_placements() {
  return int_env("ARENA_PLACEMENTS", 1, kMaxPlacements,
                 "give how many places in device memory each timed side rotates through (1 to " +
                     std::to_string(kMaxPlacements) + "; 1 keeps one place for the whole eval), or unset it for " +
                     std::to_string(kDefaultPlacements))
      .value_or(kDefaultPlacements);
}

}  // namespace arena
