#include "judge/device_plane.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "core/error.hpp"
#include "core/parallel.hpp"

namespace arena {
namespace {

// The staging region: uploads and downloads pass through it in pieces of this size.
constexpr uint64_t kStagingBytes = uint64_t{64} << 20;
// A request to the helper is device work of a few milliseconds at most; a minute means it hung.
constexpr double kTimeoutS = 60;

}  // namespace

DevicePlane::DevicePlane(const RunnerSpec& helper) : client_(helper) {}

DevicePlane::~DevicePlane() = default;

const std::string& DevicePlane::unavailable() {
  if (checked_) return unavailable_;
  checked_ = true;
  if (!client_.wait_ready()) {
    unavailable_ = "the device helper did not start: " + client_.start_error();
    return unavailable_;
  }
  try {
    staging_ = client_.map_region(kStagingBytes);
  } catch (const InternalError& e) {
    unavailable_ = std::string("the device helper could not map its staging region: ") + e.what();
  }
  return unavailable_;
}

protocol::Reply DevicePlane::ask(protocol::Request q, const char* what, int* fd) {
  if (!unavailable().empty()) throw InternalError("the device plane is unavailable: " + unavailable_);
  protocol::Reply r;
  CallOutcome o = client_.request(q, kTimeoutS, &r, fd);
  if (o.kind != CallOutcome::Kind::kOk)
    throw InternalError(std::string("the judge's device helper failed to ") + what + ": " + o.message);
  return r;
}

DevicePlane::Buffer DevicePlane::allocate(uint64_t bytes, bool exported, std::string* why) {
  protocol::Request q;
  q.op = protocol::Op::kDevAlloc;
  q.args[0] = bytes;
  q.args[1] = exported ? 1 : 0;
  int fd = -1;
  protocol::Reply r = ask(q, "allocate device memory", exported ? &fd : nullptr);
  if (r.result[0] == 0) {
    if (fd >= 0) close(fd);
    *why = "the device helper could not allocate: " + std::string(r.message, strnlen(r.message, sizeof r.message));
    return {};
  }
  if (exported && fd < 0) throw InternalError("the device helper exported no descriptor for its buffer");
  return {r.result[0], r.result[1], fd};
}

void DevicePlane::release(Buffer& b) {
  if (b.id == 0) return;
  if (b.base != 0) throw InternalError("release: a view of a device buffer is not its own allocation");
  if (b.fd >= 0) close(b.fd);
  protocol::Request q;
  q.op = protocol::Op::kDevFree;
  q.args[0] = b.id;
  if (client_.alive()) ask(q, "free device memory");
  b = Buffer{};
}

void DevicePlane::upload(const Buffer& dst, uint64_t offset, const void* src, uint64_t bytes) {
  for (uint64_t done = 0; done < bytes;) {
    const uint64_t piece = std::min(kStagingBytes, bytes - done);
    parallel_copy(staging_, static_cast<const std::byte*>(src) + done, piece);
    protocol::Request q;
    q.op = protocol::Op::kDevCopy;
    q.args[0] = dst.id;
    q.args[1] = dst.base + offset + done;
    q.args[2] = 0;
    q.args[3] = 0;
    q.args[4] = piece;
    ask(q, "upload");
    done += piece;
  }
}

void DevicePlane::upload_scattered(const Buffer& dst, const std::byte* image, const std::vector<ByteMove>& pieces) {
  // The moves first, then their bytes, 16-byte aligned after them.
  std::vector<ByteMove> moves = pieces;
  uint64_t at = (moves.size() * sizeof(ByteMove) + 15) / 16 * 16;
  for (auto& m : moves) {
    if (at + m.bytes > kStagingBytes) throw InternalError("upload_scattered: more than the staging region holds");
    std::memcpy(staging_ + at, image + m.source, m.bytes);
    m.source = at;
    m.dest += dst.base;
    at += (m.bytes + 15) / 16 * 16;
  }
  if (moves.empty()) return;
  std::memcpy(staging_, moves.data(), moves.size() * sizeof(ByteMove));
  protocol::Request q;
  q.op = protocol::Op::kDevMoves;
  q.args[0] = dst.id;
  q.args[1] = 0;  // from the staging region
  q.args[2] = 0;
  q.args[3] = moves.size();
  ask(q, "upload to the device");
}

void DevicePlane::download(const Buffer& src, uint64_t offset, void* dst, uint64_t bytes) {
  for (uint64_t done = 0; done < bytes;) {
    const uint64_t piece = std::min(kStagingBytes, bytes - done);
    protocol::Request q;
    q.op = protocol::Op::kDevCopy;
    q.args[0] = 0;
    q.args[1] = 0;
    q.args[2] = src.id;
    q.args[3] = src.base + offset + done;
    q.args[4] = piece;
    ask(q, "download");
    parallel_copy(static_cast<std::byte*>(dst) + done, staging_, piece);
    done += piece;
  }
}

void DevicePlane::copy(const Buffer& dst, uint64_t dst_offset, const Buffer& src, uint64_t src_offset,
                       uint64_t bytes) {
  protocol::Request q;
  q.op = protocol::Op::kDevCopy;
  q.args[0] = dst.id;
  q.args[1] = dst.base + dst_offset;
  q.args[2] = src.id;
  q.args[3] = src.base + src_offset;
  q.args[4] = bytes;
  ask(q, "copy on the device");
}

void DevicePlane::move(const Buffer& dst, const Buffer& src, const std::vector<ByteMove>& moves) {
  // Each request within one launch of the helper (protocol::kDevMovesPerRequest), not one copy
  // per move.
  constexpr size_t kPerRequest =
      std::min<size_t>(kStagingBytes / sizeof(ByteMove), protocol::kDevMovesPerRequest);
  static_assert(sizeof(ByteMove) == 3 * sizeof(uint64_t));
  for (size_t done = 0; done < moves.size();) {
    const size_t n = std::min(kPerRequest, moves.size() - done);
    auto* staged = reinterpret_cast<ByteMove*>(staging_);
    for (size_t i = 0; i < n; ++i) {
      const ByteMove& m = moves[done + i];
      staged[i] = {src.base + m.source, dst.base + m.dest, m.bytes};
    }
    protocol::Request q;
    q.op = protocol::Op::kDevMoves;
    q.args[0] = dst.id;
    q.args[1] = src.id;
    q.args[2] = 0;
    q.args[3] = n;
    ask(q, "move data on the device");
    done += n;
  }
}

void DevicePlane::fill(const Buffer& dst, uint64_t offset, uint64_t elements, uint32_t element_bytes,
                       uint64_t bits) {
  protocol::Request q;
  q.op = protocol::Op::kDevFill;
  q.args[0] = dst.id;
  q.args[1] = dst.base + offset;
  q.args[2] = elements;
  q.args[3] = element_bytes;
  q.args[4] = bits;
  ask(q, "fill device memory");
}

std::vector<DevicePlane::Difference> DevicePlane::compare(const Buffer& a, const Buffer& b,
                                                          const std::vector<std::pair<uint64_t, uint64_t>>& ranges) {
  constexpr size_t kPerRequest = 1024;  // the helper's limit
  std::vector<Difference> out;
  out.reserve(ranges.size());
  for (size_t done = 0; done < ranges.size();) {
    const size_t n = std::min(kPerRequest, ranges.size() - done);
    auto* words = reinterpret_cast<uint64_t*>(staging_);
    for (size_t i = 0; i < n; ++i) {
      words[3 * i] = a.base + ranges[done + i].first;
      words[3 * i + 1] = ranges[done + i].second;
      words[3 * i + 2] = b.base + ranges[done + i].first;
    }
    protocol::Request q;
    q.op = protocol::Op::kDevCompare;
    q.args[0] = a.id;
    q.args[1] = b.id;
    q.args[2] = 0;
    q.args[3] = n;
    ask(q, "compare on the device");
    const uint64_t* results = words + 3 * n;
    for (size_t i = 0; i < n; ++i) out.push_back({results[2 * i], results[2 * i + 1]});
    done += n;
  }
  return out;
}

DevicePlane::OutOfTolerance DevicePlane::check(const Buffer& got, uint64_t got_offset, const Buffer& expected,
                                               uint64_t expected_offset, uint64_t elements, DType dtype, double atol,
                                               double rtol) {
  auto* params = reinterpret_cast<uint64_t*>(staging_);
  params[0] = static_cast<uint64_t>(dtype);
  std::memcpy(&params[1], &atol, 8);
  std::memcpy(&params[2], &rtol, 8);
  protocol::Request q;
  q.op = protocol::Op::kDevCheck;
  q.args[0] = got.id;
  q.args[1] = got.base + got_offset;
  q.args[2] = expected.id;
  q.args[3] = expected.base + expected_offset;
  q.args[4] = elements;
  q.args[5] = 0;
  protocol::Reply r = ask(q, "check outputs on the device");
  return {r.result[0], r.result[1]};
}

void DevicePlane::generate(const Buffer& dst, uint64_t offset, uint64_t elements, DType dtype,
                           const ElementDraw& draw) {
  if (draw.kind > ElementDraw::Kind::kInteger || draw.span == 0)
    throw InternalError("draw inputs on the device: not a draw the helper makes");  // it would exit
  write_element_draw(reinterpret_cast<uint64_t*>(staging_), static_cast<uint64_t>(dtype), draw);
  protocol::Request q;
  q.op = protocol::Op::kDevGenerate;
  q.args[0] = dst.id;
  q.args[1] = dst.base + offset;
  q.args[2] = elements;
  q.args[3] = 0;
  ask(q, "draw inputs on the device");
}

}  // namespace arena
