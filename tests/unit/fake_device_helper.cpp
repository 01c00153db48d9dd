// A stand-in for arena-device-helper where no GPU is: the same protocol
// (judge/runner_protocol.hpp's kDev* requests, through the real runner_io.hpp), with host memory
// for the "device" buffers, so the judge's client (judge/device_plane.hpp) is tested in CI.
// Exported buffers are memfds; allocations above $FAKE_DEVICE_BYTES (default 256 MiB) get the
// helper's "no room" answer.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#include "backends/runner_io.hpp"
#include "core/dtype_bits.hpp"
#include "judge/element_draw.hpp"
#include "judge/tolerance_rule.hpp"

namespace {

using arena::protocol::Op;

struct Buffer {
  unsigned char* data = nullptr;
  uint64_t bytes = 0;
  int fd = -1;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) return 2;
  arena::runner::g_socket = std::atoi(argv[1]);
  const int region_fd = std::atoi(argv[2]);
  const char* limit_env = std::getenv("FAKE_DEVICE_BYTES");
  const uint64_t limit = limit_env ? std::strtoull(limit_env, nullptr, 10) : uint64_t{256} << 20;
  arena::runner::reply_ready(std::string(arena::protocol::kSandboxOff) + "fake device helper");
  std::map<uint64_t, Buffer> buffers;
  unsigned char* staging = nullptr;
  uint64_t staging_bytes = 0, next_id = 1;
  auto at = [&](uint64_t id, uint64_t offset, uint64_t bytes) -> unsigned char* {
    Buffer b = id == 0 ? Buffer{staging, staging_bytes, -1} : buffers.at(id);
    if (b.data == nullptr || offset > b.bytes || bytes > b.bytes - offset)
      arena::runner::fail("outside buffer " + std::to_string(id), arena::protocol::kExitSetup);
    return b.data + offset;
  };
  for (;;) {
    arena::protocol::Request q;
    if (!arena::runner::receive(q)) return 0;
    arena::protocol::Reply r;
    const uint64_t* a = q.args;
    switch (q.op) {
      case Op::kQuit:
        return 0;
      case Op::kMap:
        staging = static_cast<unsigned char*>(
            mmap(nullptr, q.region_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, region_fd, 0));
        staging_bytes = q.region_bytes;
        break;
      case Op::kDevAlloc: {
        if (a[0] > limit) {
          std::snprintf(r.message, sizeof r.message, "out of memory (fake: %llu bytes at most)",
                        static_cast<unsigned long long>(limit));
          break;
        }
        Buffer b;
        b.bytes = (a[0] + 4095) / 4096 * 4096;
        b.fd = memfd_create("fake-device-buffer", MFD_CLOEXEC);
        if (ftruncate(b.fd, static_cast<off_t>(b.bytes)) != 0) return 3;
        b.data = static_cast<unsigned char*>(mmap(nullptr, b.bytes, PROT_READ | PROT_WRITE, MAP_SHARED, b.fd, 0));
        r.result[0] = next_id++;
        r.result[1] = b.bytes;
        buffers[r.result[0]] = b;
        if (a[1] != 0) {
          arena::runner::send_reply_with_fd(r, b.fd);
          continue;
        }
        break;
      }
      case Op::kDevFree:
        if (auto it = buffers.find(a[0]); it != buffers.end()) {
          munmap(it->second.data, it->second.bytes);
          close(it->second.fd);
          buffers.erase(it);
        }
        break;
      case Op::kDevCopy:
        std::memmove(at(a[0], a[1], a[4]), at(a[2], a[3], a[4]), a[4]);
        break;
      case Op::kDevMoves: {
        // The real helper applies a list in one launch only up to this many moves (one copy per
        // move beyond, microseconds each): a judge that sends longer lists is an error here.
        if (a[3] > arena::protocol::kDevMovesPerRequest)
          arena::runner::fail("moves: " + std::to_string(a[3]) + " in one request", arena::protocol::kExitSetup);
        const auto* m = reinterpret_cast<const uint64_t*>(at(0, a[2], a[3] * 24));
        for (uint64_t i = 0; i < a[3]; ++i) std::memmove(at(a[0], m[3 * i + 1], m[3 * i + 2]), at(a[1], m[3 * i], m[3 * i + 2]), m[3 * i + 2]);
        break;
      }
      case Op::kDevFill: {
        unsigned char* p = at(a[0], a[1], a[2] * a[3]);
        for (uint64_t i = 0; i < a[2]; ++i) std::memcpy(p + i * a[3], &a[4], a[3]);
        break;
      }
      case Op::kDevCompare: {
        auto* ranges = reinterpret_cast<uint64_t*>(at(0, a[2], a[3] * 40));
        uint64_t* out = ranges + 3 * a[3];
        for (uint64_t i = 0; i < a[3]; ++i) {
          const unsigned char* x = at(a[0], ranges[3 * i], ranges[3 * i + 1]);
          const unsigned char* y = at(a[1], ranges[3 * i + 2], ranges[3 * i + 1]);
          out[2 * i] = 0;
          out[2 * i + 1] = ~uint64_t{0};
          for (uint64_t k = 0; k < ranges[3 * i + 1]; ++k) {
            if (x[k] == y[k]) continue;
            if (out[2 * i]++ == 0) out[2 * i + 1] = k;
          }
          r.result[0] += out[2 * i] != 0 ? 1 : 0;
        }
        break;
      }
      case Op::kDevCheck: {
        const auto* params = reinterpret_cast<const uint64_t*>(at(0, a[5], 24));
        if (params[0] > static_cast<uint64_t>(arena::DType::kUint8) || a[0] == 0 || a[2] == 0)
          arena::runner::fail("check: bad request", arena::protocol::kExitSetup);
        const auto dtype = static_cast<arena::DType>(params[0]);
        const uint64_t size = arena::dtype_bits::size(dtype);
        const unsigned char* got = at(a[0], a[1], a[4] * size);
        const unsigned char* expected = at(a[2], a[3], a[4] * size);
        if (reinterpret_cast<uintptr_t>(got) % size != 0 || reinterpret_cast<uintptr_t>(expected) % size != 0)
          arena::runner::fail("check: misaligned", arena::protocol::kExitSetup);
        double atol = 0, rtol = 0, bound = 0;
        std::memcpy(&atol, &params[1], 8);
        std::memcpy(&rtol, &params[2], 8);
        r.result[1] = ~uint64_t{0};
        for (uint64_t i = 0; i < a[4]; ++i) {
          if (arena::within_tolerance(arena::dtype_bits::load(dtype, got, i), arena::dtype_bits::load(dtype, expected, i),
                                      atol, rtol, &bound))
            continue;
          if (r.result[0]++ == 0) r.result[1] = i;
        }
        break;
      }
      case Op::kDevGenerate: {
        uint64_t dtype_code = 0;
        const arena::ElementDraw d = arena::read_element_draw(
            reinterpret_cast<const uint64_t*>(at(0, a[3], 8 * arena::kElementDrawWords)), &dtype_code);
        // As strict as the real helper: a request it refuses fails here too.
        if (dtype_code > static_cast<uint64_t>(arena::DType::kUint8) || d.kind > arena::ElementDraw::Kind::kInteger ||
            d.span == 0 || a[0] == 0)
          arena::runner::fail("generate: bad request", arena::protocol::kExitSetup);
        const auto dtype = static_cast<arena::DType>(dtype_code);
        unsigned char* p = at(a[0], a[1], a[2] * arena::dtype_bits::size(dtype));
        if (reinterpret_cast<uintptr_t>(p) % arena::dtype_bits::size(dtype) != 0)
          arena::runner::fail("generate: misaligned", arena::protocol::kExitSetup);
        for (uint64_t i = 0; i < a[2]; ++i) arena::dtype_bits::store(dtype, p, i, arena::draw_element(d, i));
        break;
      }
      default:
        arena::runner::fail("unknown request", arena::protocol::kExitSetup);
    }
    arena::runner::send_reply(r);
  }
}
