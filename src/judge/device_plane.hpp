// The device plane: device buffers that belong to the judge, through its trusted device helper
// (a process with a CUDA context and no solution code: arena-device-helper). A lane's runner maps
// the buffer the helper allocated for it (by file descriptor) instead of allocating its own, so
// the helper can lay out a timed call's inputs, poison its outputs and compare them with the
// expected ones on the device, where the runner could forge nothing: no tensor crosses to the
// host on the timed path (judge/timed_data_on_device.hpp). The backend says whether it has one
// (Backend::device_helper).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/dtype.hpp"
#include "judge/buffer_layout.hpp"
#include "judge/element_draw.hpp"
#include "judge/runner_client.hpp"

namespace arena {

class DevicePlane {
 public:
  // Starts the helper without waiting for it (it comes up beside the runners).
  explicit DevicePlane(const RunnerSpec& helper);
  ~DevicePlane();
  DevicePlane(const DevicePlane&) = delete;
  DevicePlane& operator=(const DevicePlane&) = delete;

  // "" once the helper is up, else why it is not (then nothing else may be called).
  const std::string& unavailable();
  // Whether the helper's process has ended, without waiting (for a plane started ahead of need
  // that nobody used yet: judge/runner_pool.hpp).
  bool helper_exited() { return client_.exited(); }
  // Kills the helper and hands its process over (RunnerClient::hand_over): its pid, or -1.
  pid_t hand_over() { return client_.hand_over(); }

  struct Buffer {
    uint64_t id = 0;     // 0: none
    uint64_t bytes = 0;  // as allocated (rounded up to the device's granularity); a view's own
    int fd = -1;         // exported buffers: the descriptor a runner maps (owned by the plane)
    uint64_t base = 0;   // a view: where it starts in the allocation; every offset given with
                         // the buffer is from there
    // The `bytes` at `offset` of this buffer, as a buffer of their own (not to be released).
    Buffer view(uint64_t offset, uint64_t view_bytes) const { return {id, view_bytes, -1, base + offset}; }
  };
  // A device buffer of at least `bytes`; `exported` ones come with a descriptor for a runner.
  // No buffer (id 0), with *why, when the device has no room; throws InternalError when the
  // helper died.
  Buffer allocate(uint64_t bytes, bool exported, std::string* why);
  // Frees a buffer allocate() gave (not a view).
  void release(Buffer& b);

  // Host to device and back, through the staging region.
  void upload(const Buffer& dst, uint64_t offset, const void* src, uint64_t bytes);
  // Host to device, scattered: for every move, bytes from image + source to dst + dest, in one
  // request (their bytes together fit the staging region: a few KiB each, as guard zones).
  void upload_scattered(const Buffer& dst, const std::byte* image, const std::vector<ByteMove>& pieces);
  void download(const Buffer& src, uint64_t offset, void* dst, uint64_t bytes);
  // Device to device: dst[dst_offset, + bytes) = src[src_offset, + bytes).
  void copy(const Buffer& dst, uint64_t dst_offset, const Buffer& src, uint64_t src_offset, uint64_t bytes);
  // Device to device: every move (source offsets into src, destinations into dst).
  void move(const Buffer& dst, const Buffer& src, const std::vector<ByteMove>& moves);
  // `elements` copies of the low `element_bytes` bytes of `bits` at dst + offset.
  void fill(const Buffer& dst, uint64_t offset, uint64_t elements, uint32_t element_bytes, uint64_t bits);

  struct Difference {
    uint64_t bytes = 0;                // bytes that differ
    uint64_t first = ~uint64_t{0};     // offset of the first one within the range
  };
  // a and b compared over each range ({offset, bytes}, the same in both: from each one's base),
  // on the device.
  std::vector<Difference> compare(const Buffer& a, const Buffer& b,
                                  const std::vector<std::pair<uint64_t, uint64_t>>& ranges);

  struct OutOfTolerance {
    uint64_t elements = 0;        // elements out of tolerance
    uint64_t first = ~uint64_t{0};  // the first one's index
  };
  // `elements` of `dtype` at got + got_offset against expected + expected_offset, on the device,
  // by the host checker's rule (judge/tolerance_rule.hpp).
  OutOfTolerance check(const Buffer& got, uint64_t got_offset, const Buffer& expected, uint64_t expected_offset,
                       uint64_t elements, DType dtype, double atol, double rtol);

  // `elements` of `dtype` at dst + offset drawn on the device: element i = draw_element(draw, i).
  void generate(const Buffer& dst, uint64_t offset, uint64_t elements, DType dtype, const ElementDraw& draw);

  // Seconds the judge waited for the helper's start (not the timed path's).
  double start_seconds() const { return client_.start_seconds(); }

 private:
  protocol::Reply ask(protocol::Request q, const char* what, int* fd = nullptr);
  RunnerClient client_;
  std::byte* staging_ = nullptr;
  std::string unavailable_;
  bool checked_ = false;
};

}  // namespace arena
