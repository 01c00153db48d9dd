// The protocol between the judge (trusted) and a runner (untrusted child that holds one solution).
//
// Transport: a SOCK_SEQPACKET socket pair, one fixed-size message per packet. The buffers live in
// a memfd shared with the runner; requests carry offsets into it, never pointers. The runner holds
// no reference outputs and no seeds: it only ever sees the inputs and outputs of one call.
//
// A runner starts without a solution: it brings its device context up, then waits for kLoad,
// which names the one library it will ever hold. So runners can be started ahead of need
// (judge/runner_pool.hpp) while the solution still compiles. Its first reply answers kLoad: the
// ready reply (Reply::message says whether the sandbox is on) or the error that failed the load.
// The device helper takes no kLoad: it replies ready once its context is up.
#pragma once

#include <cstdint>

namespace arena::protocol {

constexpr uint32_t kMagic = 0x4B41524E;  // "KARN"
constexpr int kMaxPointers = 32;
constexpr int kMaxScalars = 32;
// kUpload/kDownload of parts of the region: at most this many [offset, offset + bytes) ranges.
constexpr int kMaxRanges = 2 * kMaxPointers + 2;
// kLoad: the library's path, in a packet of its own right after the request (args[1] bytes,
// no NUL), so that every other request stays small.
constexpr int kMaxPath = 4096;
// Exit code of a runner that ran out of memory (operator new failed).
constexpr int kExitOom = 86;
// Exit code of a runner that could not load its library or got a malformed request.
constexpr int kExitSetup = 87;
// Exit code of a runner whose call was refused at launch (resources, configuration: CUDA).
constexpr int kExitLaunch = 88;
// Exit code of a CUDA runner whose call ended in any other CUDA error (an illegal address, a
// sticky fault) or blocked while the device was held; its output says which.
constexpr int kExitCuda = 89;
// Exit code of a runner whose solution made a system call the runner's seccomp profile denies
// (src/backends/runner_sandbox.hpp); its output ends with "arena-sandbox: denied <name> (<nr>)".
constexpr int kExitSandbox = 90;
// The runner's ready reply says in its message whether the filter is on: kSandboxOn, or
// kSandboxOff followed by why not.
constexpr const char* kSandboxOn = "sandbox: seccomp";
constexpr const char* kSandboxOff = "sandbox: off: ";
// After kSandboxOn: whether file reads are confined too (Landlock), or why not.
constexpr const char* kReadsConfined = "; reads: confined";
constexpr const char* kReadsOpen = "; reads: open: ";

enum class Op : uint32_t {
  kMap = 1,   // (re)map the shared buffer region at its new size
  kCall = 2,  // call the entry point once
  kQuit = 3,
  kFlush = 4,  // evict the caches (cold timing); a request of its own, so the judge's clock
               // around kCall covers the call alone
  kUpload = 5,    // copy the shared region to the device's copy of it (no-op on the CPU)
  kDownload = 6,  // copy the device's copy back into the shared region (no-op on the CPU)
  kLoad = 7,      // the first request to a runner, and only then: load the library whose path
                  // follows in the next packet (args[1] bytes, below kMaxPath) and call only it
                  // from now on; args[0] = the address-space limit (RLIMIT_AS) to set before it
                  // loads, 0 = none. Answered by the ready reply.
  // The device plane (judge/device_plane.hpp): requests to the judge's trusted device helper,
  // which owns device buffers and moves, fills and compares them; never sent to a runner.
  // Their arguments are in Request::args, as each says; buffer 0 is the helper's staging region
  // (the memfd it shares with the judge), others are device buffers it allocated.
  kDevAlloc = 20,     // args: bytes, exported (1: the reply carries a POSIX fd of it, SCM_RIGHTS).
                      // Reply: result[0] = buffer id, result[1] = bytes allocated (rounded up);
                      // result[0] = 0 and why in message when the device has no room
  kDevFree = 21,      // args: buffer id
  kDevCopy = 22,      // args: dst id, dst offset, src id, src offset, bytes (either may be 0)
  kDevMoves = 23,     // args: dst id, src id, staging offset of the moves, count: each move is
                      // three uint64 (src offset, dst offset, bytes)
  kDevFill = 24,      // args: buffer id, offset, elements, element bytes (1, 2, 4, 8), pattern bits
  kDevCompare = 25,   // args: id a, id b, staging offset of the ranges, count: each range is three
                      // uint64 (offset in a, bytes, offset in b); the helper writes two
                      // uint64 per range after them (bytes that differ, first differing byte or
                      // ~0); result[0] = ranges with a difference
  kDevCheck = 26,     // args: got id, got offset, expected id, expected offset, elements, staging
                      // offset of three uint64 (dtype as core/dtype.hpp's enum, atol and rtol as
                      // double bits): every element against judge/tolerance_rule.hpp. Reply:
                      // result[0] = elements out of tolerance, result[1] = the first one's index (~0)
  kDevGenerate = 27,  // args: buffer id, offset, elements, staging offset of ten uint64 (dtype, then
                      // judge/element_draw.hpp's ElementDraw: kind, key, span, and offset, scale,
                      // low, high, mean, stddev as double bits): element i = draw_element(d, i),
                      // stored as the dtype (core/dtype_bits.hpp)
};

// The most moves one kDevMoves request carries: the device helper applies them in one launch
// (a grid's height); a longer list would be one copy per move, microseconds each (a transpose's
// two reordered axes make hundreds of thousands of moves per tensor).
constexpr uint64_t kDevMovesPerRequest = 65535;

// The judge's scalar arguments; the generated shim reads `i` or `f` as the task's type says.
struct ScalarValue {
  int64_t i;
  double f;
};

// kCall flags.
// The stream is not held while the call is enqueued: for the warm-up call before timing, so that
// one-time work a library does at its first use (loading a kernel module waits for an idle
// device) cannot deadlock against the hold. Its time is not a sample.
constexpr uint32_t kCallNoHold = 1;

struct Request {
  uint32_t magic = kMagic;
  Op op = Op::kCall;
  uint32_t call_flags = 0;       // kCall: kCallNoHold
  uint32_t graph_launches = 0;   // kCall: 0 = one plain call; N = N calls captured into one CUDA
                                 // graph, replayed once in the timed window (elapsed_ns covers all N)
  uint64_t region_bytes = 0;  // kMap: size of the memfd region
  uint32_t pointer_count = 0;
  uint32_t scalar_count = 0;
  uint64_t offsets[kMaxPointers] = {};  // kCall: tensor offsets into the region
  ScalarValue scalars[kMaxScalars] = {};
  // kUpload/kDownload: 0 = the whole region; else only these ranges (offset, bytes).
  uint32_t range_count = 0;
  uint64_t ranges[kMaxRanges][2] = {};
  // kMap with kMapDeviceShared: args[0] = the bytes of the device allocation whose fd comes with
  // the request. kCall: args[0] = the judge's limit for the call in nanoseconds (0 = none given),
  // so a runner's own limits inside the call (the CUDA hold's) end before the judge's. kDev*: as
  // each op says.
  uint64_t args[6] = {};
};

// kMap flag (in call_flags): the request carries (SCM_RIGHTS) a POSIX file descriptor of device
// memory that the judge's device helper allocated; the runner maps it as its device copy of the
// region instead of allocating its own. The runner never owns those buffers.
constexpr uint32_t kMapDeviceShared = 2;

enum class Status : uint32_t { kOk = 0, kError = 1 };

struct Reply {
  uint32_t magic = kMagic;
  Status status = Status::kOk;
  uint64_t elapsed_ns = 0;  // the call alone, as the runner's clock (CUDA: events) saw it
  // From the start of the call until every device was idle again, on the host's clock: more
  // than elapsed_ns when work ran outside the given stream. Equal to elapsed_ns on the CPU.
  uint64_t all_work_ns = 0;
  // kDev* answers. kCall (CUDA): [0] launches, copies and memsets the call enqueued where they
  // were not ordered after the window's start (backends/cuda/stream_watch.hpp; `message` names
  // the first), [1] 1 where they were watched (a held plain call, CUPTI on).
  uint64_t result[2] = {};
  char message[480] = {};   // for kError, the library-load answer, and kCall's result[0]
  // kCall: "" or what of the runner's timing path was changed inside the solution's process
  // (backends/relocation_seal.hpp), the first thing found.
  char tampered[320] = {};
};

}  // namespace arena::protocol
