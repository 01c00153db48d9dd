#include "judge/guard_bytes.hpp"

#include "judge/random.hpp"

namespace arena {
namespace {

// The guard byte at position j of zone z (2 zones per slot).
std::byte guard_byte(uint64_t key, size_t zone, size_t j) {
  return static_cast<std::byte>(random_bits(key, (static_cast<uint64_t>(zone) << 20) + j / 8) >> (8 * (j % 8)));
}

}  // namespace

void fill_guards(std::byte* region, const BufferLayout& layout, uint64_t key) {
  for (size_t s = 0; s < layout.slots.size(); ++s) {
    const auto& slot = layout.slots[s];
    std::byte* before = region + slot.offset - BufferLayout::kGuardBytes;
    std::byte* after = region + slot.offset + slot.bytes;
    for (size_t j = 0; j < BufferLayout::kGuardBytes; ++j) {
      before[j] = guard_byte(key, 2 * s, j);
      after[j] = guard_byte(key, 2 * s + 1, j);
    }
  }
}

std::optional<GuardViolation> check_guards(const std::byte* region, const BufferLayout& layout, uint64_t key) {
  for (size_t s = 0; s < layout.slots.size(); ++s) {
    const auto& slot = layout.slots[s];
    const std::byte* after = region + slot.offset + slot.bytes;
    for (size_t j = 0; j < BufferLayout::kGuardBytes; ++j)
      if (after[j] != guard_byte(key, 2 * s + 1, j)) return GuardViolation{s, true, j};
    const std::byte* before = region + slot.offset - BufferLayout::kGuardBytes;
    for (size_t j = BufferLayout::kGuardBytes; j-- > 0;)
      if (before[j] != guard_byte(key, 2 * s, j)) return GuardViolation{s, false, BufferLayout::kGuardBytes - j};
  }
  return std::nullopt;
}

}  // namespace arena
