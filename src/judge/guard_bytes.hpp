// Guard zones around every buffer, filled with bytes the solution cannot predict; any change to
// them after a call is an out-of-bounds write.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "judge/buffer_layout.hpp"

namespace arena {

struct GuardViolation {
  size_t slot = 0;          // which buffer
  bool after = true;        // past the end (true) or before the start
  size_t byte_distance = 0; // bytes from the buffer's edge to the first changed byte
};

void fill_guards(std::byte* region, const BufferLayout& layout, uint64_t key);
std::optional<GuardViolation> check_guards(const std::byte* region, const BufferLayout& layout, uint64_t key);

}  // namespace arena
