#include "judge/placements.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "core/error.hpp"

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
  const char* env = std::getenv("ARENA_PLACEMENTS");
  if (env == nullptr) return kDefaultPlacements;
  const std::string text = env;
  char* end = nullptr;
  const long n = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || end != text.c_str() + text.size() || n < 1 || n > kMaxPlacements)
    throw InputError("ARENA_PLACEMENTS is '" + text +
                     "': give how many places in device memory each timed side " +
                     "rotates through (1 to " + std::to_string(kMaxPlacements) +
                     "; 1 keeps one place for the whole eval), or unset it for " +
                     std::to_string(kDefaultPlacements));
  return static_cast<int>(n);
}

}  // namespace arena
