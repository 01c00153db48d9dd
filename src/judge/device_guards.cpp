#include "judge/device_guards.hpp"

#include <memory>

namespace arena {

std::vector<ByteMove> guard_zones(const BufferLayout& layout) {
  std::vector<ByteMove> zones;
  const uint64_t g = BufferLayout::kGuardBytes;
  for (const auto& s : layout.slots) {
    zones.push_back({s.offset - g, s.offset - g, g});
    zones.push_back({s.offset + s.bytes, s.offset + s.bytes, g});
  }
  return zones;
}

namespace {
// A region-sized host image; only the pages of the guard zones are ever touched.
std::unique_ptr<std::byte[]> sparse_region(const BufferLayout& layout) {
  return std::unique_ptr<std::byte[]>(new std::byte[layout.total_bytes]);
}
}  // namespace

std::vector<ByteMove> upload_guards(DevicePlane& plane, const DevicePlane::Buffer& image,
                                    const BufferLayout& layout, uint64_t key) {
  std::unique_ptr<std::byte[]> region = sparse_region(layout);
  fill_guards(region.get(), layout, key);
  std::vector<ByteMove> zones = guard_zones(layout);
  plane.upload_scattered(image, region.get(), zones);
  return zones;
}

std::optional<GuardViolation> guard_violation_on_device(DevicePlane& plane,
                                                        const DevicePlane::Buffer& got,
                                                        const DevicePlane::Buffer& image,
                                                        const BufferLayout& layout, uint64_t key) {
  const std::vector<ByteMove> zones = guard_zones(layout);
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  ranges.reserve(zones.size());
  for (const auto& z : zones) ranges.emplace_back(z.dest, z.bytes);
  bool changed = false;
  for (const auto& d : plane.compare(got, image, ranges)) changed = changed || d.bytes != 0;
  if (!changed) return std::nullopt;
  std::unique_ptr<std::byte[]> region = sparse_region(layout);
  for (const auto& z : zones) plane.download(got, z.dest, region.get() + z.dest, z.bytes);
  if (auto v = check_guards(region.get(), layout, key)) return v;
  // The image itself was not the key's: say so rather than pass.
  return GuardViolation{0, true, 0};
}

}  // namespace arena
