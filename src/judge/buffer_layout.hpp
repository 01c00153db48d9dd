// Where each tensor lives in the region shared with a runner: every buffer sits between two
// guard zones, with its end flush against the trailing guard so a write one element past the end
// lands in it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace arena {

struct BufferLayout {
  static constexpr size_t kGuardBytes = 4096;
  struct Slot {
    size_t offset = 0;  // first data byte; 64-byte aligned
    size_t bytes = 0;
  };
  std::vector<Slot> slots;
  size_t total_bytes = 0;
};

// A contiguous piece of data moved from one buffer to another (offsets within each).
struct ByteMove {
  uint64_t source = 0;
  uint64_t dest = 0;
  uint64_t bytes = 0;
};

BufferLayout make_layout(const std::vector<size_t>& tensor_bytes);

}  // namespace arena
