// arena-runner-cpu: the untrusted side of the judge for CPU solutions.
//
// Loads one compiled solution and calls it on buffers in a shared memory region, when and as the
// judge asks. It starts without one (it may be started ahead of need) and loads the library the
// judge's first request (kLoad) names; it is killed on a crash or hang; see runner_protocol.hpp.
//
//   arena-runner-cpu <socket-fd> <region-fd> <flush-bytes> [--no-sandbox]
//
// The seccomp profile (runner_sandbox.hpp) goes on before the solution is loaded, so that its
// static constructors run under it too; --no-sandbox (the judge's, for ARENA_NO_SANDBOX=1)
// leaves it off.

#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/prctl.h>
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

#include "backends/runner_io.hpp"
#include "backends/relocation_seal.hpp"
#include "backends/runner_sandbox.hpp"

namespace {

using arena::protocol::Reply;
using arena::protocol::Request;
using arena::runner::fail;
using arena::runner::now_ns;
using arena::runner::reply_ok;
using arena::runner::send_reply;

void out_of_memory() { fail("out of memory: operator new failed", arena::protocol::kExitOom); }

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
  const bool sandbox = argc == 4;
  if (argc != 4 && !(argc == 5 && std::strcmp(argv[4], "--no-sandbox") == 0)) {
    std::fprintf(stderr,
                 "usage: %s <socket-fd> <region-fd> <flush-bytes> [--no-sandbox]\n"
                 "(started by the judge; not meant to be run by hand)\n",
                 argv[0]);
    return 2;
  }
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the judge
  arena::runner::g_socket = std::atoi(argv[1]);
  int region_fd = std::atoi(argv[2]);
  size_t flush_bytes = std::strtoull(argv[3], nullptr, 10);
  std::set_new_handler(out_of_memory);

  // Filled at the first flush: a runner that is never timed cold (the reference's) never pays
  // for touching it. Its size is inside the address-space limit kLoad sets.
  std::vector<uint64_t> flush_buffer;

  // The relocation slots its clock is read through, as bound at start: checked after every call.
  arena::runner::RelocationSeal seal;
  const std::string unsealed = seal.seal();
  if (!unsealed.empty()) std::fprintf(stderr, "arena-runner-cpu: relocation slots not sealed: %s\n", unsealed.c_str());

  arena::runner::LoadRequest load;
  if (!arena::runner::receive_load(load)) return 0;  // started ahead of need, never used
  arena::runner::limit_address_space(load.address_space_bytes);
  // From here on the process runs the solution's code (its constructors run at load).
  std::string sandbox_state = std::string(arena::protocol::kSandboxOff) + "the judge asked for none";
  if (sandbox) {
    arena::runner::SandboxProfile profile;
    profile.deny_writing_files = true;
    profile.readable_files = {load.library};
    sandbox_state = arena::runner::describe(arena::runner::install_sandbox(profile));
  }
  arena::runner::InvokeFn invoke = arena::runner::load_solution(load.library.c_str());
  arena::runner::reply_ready(sandbox_state);

  void* region = nullptr;
  size_t region_bytes = 0;
  std::vector<void*> pointers;
  for (;;) {
    Request q;
    if (!arena::runner::receive(q)) return 0;  // the judge closed the socket
    switch (q.op) {
      case arena::protocol::Op::kQuit:
        return 0;
      case arena::protocol::Op::kMap: {
        if (region != nullptr) munmap(region, region_bytes);
        region = mmap(nullptr, q.region_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, region_fd, 0);
        if (region == MAP_FAILED) fail(std::string("mmap: ") + std::strerror(errno), arena::protocol::kExitSetup);
        region_bytes = q.region_bytes;
        reply_ok();
        break;
      }
      case arena::protocol::Op::kUpload:
      case arena::protocol::Op::kDownload:
        reply_ok();  // the solution works on the shared region itself
        break;
      case arena::protocol::Op::kFlush:
        if (flush_buffer.empty()) flush_buffer.assign(flush_bytes / sizeof(uint64_t), 1);
        flush_caches(flush_buffer);
        reply_ok();
        break;
      case arena::protocol::Op::kCall: {
        arena::runner::resolve_pointers(q, region, region_bytes, pointers);
        uint64_t t0 = now_ns();
        invoke(pointers.data(), q.scalars, nullptr);
        uint64_t t1 = now_ns();
        Reply r;
        r.elapsed_ns = t1 - t0;
        r.all_work_ns = r.elapsed_ns;
        if (unsealed.empty()) arena::runner::put_text(r.tampered, sizeof r.tampered, seal.check());
        send_reply(r);
        break;
      }
      default:
        fail("unknown request", arena::protocol::kExitSetup);
    }
  }
}
