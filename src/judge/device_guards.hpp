// The candidate's guard bytes (judge/guard_bytes.hpp) on the judge's device plane: made from
// their key on the host, uploaded into an image in the lanes' layout, copied from there into a
// lane's buffer, and compared there after a call; only a violation's zones come back to the host,
// where check_guards says where it is.
#pragma once

#include <optional>
#include <vector>

#include "judge/buffer_layout.hpp"
#include "judge/device_plane.hpp"
#include "judge/guard_bytes.hpp"

namespace arena {

// Every guard zone of `layout`, as moves from a buffer to another at the same offsets.
std::vector<ByteMove> guard_zones(const BufferLayout& layout);

// Writes the guard bytes of `key` into every guard zone of `image`; returns guard_zones(layout).
std::vector<ByteMove> upload_guards(DevicePlane& plane, const DevicePlane::Buffer& image,
                                    const BufferLayout& layout, uint64_t key);

// Whether `got`'s guard zones still hold what `image`'s do (those of `key`), and where not.
std::optional<GuardViolation> guard_violation_on_device(DevicePlane& plane,
                                                        const DevicePlane::Buffer& got,
                                                        const DevicePlane::Buffer& image,
                                                        const BufferLayout& layout, uint64_t key);

}  // namespace arena
