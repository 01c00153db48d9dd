#include "judge/buffer_layout.hpp"

namespace arena {
namespace {
size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }
}  // namespace

BufferLayout make_layout(const std::vector<size_t>& tensor_bytes) {
  BufferLayout l;
  size_t at = 0;
  for (size_t bytes : tensor_bytes) {
    BufferLayout::Slot s;
    s.offset = align_up(at + BufferLayout::kGuardBytes, 64);
    s.bytes = bytes;
    l.slots.push_back(s);
    at = align_up(s.offset + bytes + BufferLayout::kGuardBytes, 4096);
  }
  l.total_bytes = at == 0 ? 4096 : at;
  return l;
}

}  // namespace arena
