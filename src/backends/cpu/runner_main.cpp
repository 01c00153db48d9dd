// arena-runner-cpu: the untrusted side of the judge for CPU solutions.
//
// Loads one compiled solution and calls it on buffers in a shared memory region, when and as the
// judge asks. It is started per solution and killed on a crash or hang; see runner_protocol.hpp.
//
//   arena-runner-cpu <library.so> <socket-fd> <region-fd> <flush-bytes> <address-space-bytes>

#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <new>
#include <string>
#include <vector>

#include "judge/runner_protocol.hpp"

namespace {

using arena::protocol::Reply;
using arena::protocol::Request;
using InvokeFn = void (*)(void* const*, const arena::protocol::ScalarValue*, void*);

int g_socket = -1;

void send_reply(const Reply& r) {
  if (send(g_socket, &r, sizeof r, MSG_NOSIGNAL) != static_cast<ssize_t>(sizeof r)) _exit(arena::protocol::kExitSetup);
}

[[noreturn]] void fail(const std::string& what, int code) {
  Reply r;
  r.status = arena::protocol::Status::kError;
  std::snprintf(r.message, sizeof r.message, "%s", what.c_str());
  send_reply(r);
  _exit(code);
}

void out_of_memory() { fail("out of memory: operator new failed", arena::protocol::kExitOom); }

uint64_t now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// Reads every cache line of a buffer larger than the last-level cache, evicting what the
// previous call left there. Read-only after the first pass, so no dirty lines are written back
// inside the timed window.
volatile uint64_t g_flush_sink = 0;
void flush_caches(std::vector<uint64_t>& buffer) {
  uint64_t acc = 0;
  for (size_t i = 0; i < buffer.size(); i += 8) acc += buffer[i];
  g_flush_sink = acc;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: %s <library.so> <socket-fd> <region-fd> <flush-bytes> <address-space-bytes>\n"
                 "(started by the judge; not meant to be run by hand)\n", argv[0]);
    return 2;
  }
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the judge
  g_socket = std::atoi(argv[2]);
  int region_fd = std::atoi(argv[3]);
  size_t flush_bytes = std::strtoull(argv[4], nullptr, 10);
  std::set_new_handler(out_of_memory);
  // The memory limit, before any solution code is loaded (0: none).
  if (rlim_t limit = std::strtoull(argv[5], nullptr, 10); limit > 0) {
    rlimit lim{limit, limit};
    setrlimit(RLIMIT_AS, &lim);
  }

  std::vector<uint64_t> flush_buffer(flush_bytes / sizeof(uint64_t), 1);

  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) fail(std::string("cannot load the solution: ") + dlerror(), arena::protocol::kExitSetup);
  auto invoke = reinterpret_cast<InvokeFn>(dlsym(lib, "arena_invoke"));
  if (invoke == nullptr) fail("the solution library has no arena_invoke", arena::protocol::kExitSetup);
  send_reply(Reply{});  // ready

  void* region = nullptr;
  size_t region_bytes = 0;
  std::vector<void*> pointers;
  for (;;) {
    Request q;
    ssize_t n = recv(g_socket, &q, sizeof q, 0);
    if (n == 0) return 0;  // the judge closed the socket
    if (n != static_cast<ssize_t>(sizeof q) || q.magic != arena::protocol::kMagic)
      fail("malformed request", arena::protocol::kExitSetup);
    switch (q.op) {
      case arena::protocol::Op::kQuit:
        return 0;
      case arena::protocol::Op::kMap: {
        if (region != nullptr) munmap(region, region_bytes);
        region = mmap(nullptr, q.region_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, region_fd, 0);
        if (region == MAP_FAILED) fail(std::string("mmap: ") + std::strerror(errno), arena::protocol::kExitSetup);
        region_bytes = q.region_bytes;
        send_reply(Reply{});
        break;
      }
      case arena::protocol::Op::kUpload:
      case arena::protocol::Op::kDownload:
        send_reply(Reply{});  // the solution works on the shared region itself
        break;
      case arena::protocol::Op::kFlush:
        flush_caches(flush_buffer);
        send_reply(Reply{});
        break;
      case arena::protocol::Op::kCall: {
        if (region == nullptr || q.pointer_count > arena::protocol::kMaxPointers ||
            q.scalar_count > arena::protocol::kMaxScalars)
          fail("call before map, or too many arguments", arena::protocol::kExitSetup);
        pointers.assign(q.pointer_count, nullptr);
        for (uint32_t i = 0; i < q.pointer_count; ++i) {
          if (q.offsets[i] > region_bytes) fail("offset outside the region", arena::protocol::kExitSetup);
          pointers[i] = static_cast<char*>(region) + q.offsets[i];
        }
        uint64_t t0 = now_ns();
        invoke(pointers.data(), q.scalars, nullptr);
        uint64_t t1 = now_ns();
        Reply r;
        r.elapsed_ns = t1 - t0;
        r.all_work_ns = r.elapsed_ns;
        send_reply(r);
        break;
      }
      default:
        fail("unknown request", arena::protocol::kExitSetup);
    }
  }
}
