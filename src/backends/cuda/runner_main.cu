// arena-runner-cuda: the untrusted side of the judge for CUDA solutions.
//
// Holds one compiled solution in a process with its own CUDA context. It starts without one: the
// context, stream, events and L2 flush buffer come up first (the runner may be started ahead of
// need, while the solution compiles), then the judge's first request (kLoad) names the library
// it will hold for its whole life. The buffers live in a
// shared memory region (the judge's) and in a device copy of it with the same layout, guard
// zones included: kUpload copies the region to the device, kCall runs the entry point on a
// device held by a spinning kernel (hold_kernel.cuh) and times it with events, kDownload copies everything back
// for the judge to check. See src/judge/runner_protocol.hpp.
//
//   arena-runner-cuda <socket-fd> <region-fd> <flush-bytes> <device> [--no-hold]
//                     [--no-sandbox | --reads-confined-only]
//   arena-runner-cuda --info [device]     print the device's facts as key=value lines

#include <cuda.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <new>
#include <string>
#include <vector>

#include "backends/cuda/stream_watch.hpp"
#include "backends/cuda/cuda_errors.cuh"
#include "backends/cuda/shared_device_memory.cuh"
#include "backends/cuda/hold_kernel.cuh"
#include "backends/cuda/l2_flush.cuh"
#include "backends/relocation_seal.hpp"
#include "backends/runner_io.hpp"
#include "backends/runner_landlock.hpp"
#include "backends/runner_sandbox.hpp"

namespace {

using arena::protocol::Reply;
using arena::protocol::Request;
using arena::runner::fail;
using arena::runner::now_ns;
using arena::runner::reply_ok;
using arena::runner::send_reply;

constexpr int kExitCudaError = arena::protocol::kExitCuda;
// How long the hold waits for the host to release it (microseconds after the call is enqueued;
// a call that blocks never does): 5 s, or half the judge's limit for the call where that is less,
// so that a blocked call is reported as one rather than as the judge's timeout.
constexpr uint64_t kHoldLimitNs = 5'000'000'000ull;
constexpr uint64_t kShortestHoldLimitNs = 100'000'000ull;
uint64_t hold_limit_ns(uint64_t call_limit_ns) {
  if (call_limit_ns == 0) return kHoldLimitNs;
  return std::clamp(call_limit_ns / 2, kShortestHoldLimitNs, kHoldLimitNs);
}
// How long a call waits for its hold to take every SM (the hold's launch takes microseconds).
constexpr uint64_t kResidentLimitNs = 1'000'000'000ull;

std::string describe(cudaError_t e) { return std::string(cudaGetErrorString(e)) + " (" + cudaGetErrorName(e) + ")"; }

// A CUDA error during or after the call: the class the judge should see, then exit (the
// context may be unusable; the judge starts a fresh runner).
[[noreturn]] void fail_cuda(const std::string& when, cudaError_t e) {
  int code = arena::cuda::is_out_of_memory(e) ? arena::protocol::kExitOom
             : arena::cuda::is_launch_refusal(e) ? arena::protocol::kExitLaunch
                                                 : kExitCudaError;
  fail("CUDA error " + when + ": " + describe(e), code);
}

void check_setup(cudaError_t e, const char* what) {
  if (e != cudaSuccess) fail(std::string("runner setup failed at ") + what + ": " + describe(e), arena::protocol::kExitSetup);
}

int print_info(int device) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("error=no CUDA device is visible\n");
    return 1;
  }
  if (device < 0 || device >= count) {
    std::printf("error=device %d does not exist (%d visible)\n", device, count);
    return 1;
  }
  cudaDeviceProp p{};
  cudaGetDeviceProperties(&p, device);
  int driver = 0, runtime = 0, l2 = 0, sms = 0, persist = 0, smem = 0, regs = 0, clock_khz = 0, mem_clock_khz = 0, bus = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaDeviceGetAttribute(&persist, cudaDevAttrMaxPersistingL2CacheSize, device);
  cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device);
  cudaDeviceGetAttribute(&regs, cudaDevAttrMaxRegistersPerMultiprocessor, device);
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device);
  cudaDeviceGetAttribute(&mem_clock_khz, cudaDevAttrMemoryClockRate, device);
  cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, device);
  std::printf("name=%s\n", p.name);
  std::printf("compute_capability=%d.%d\n", p.major, p.minor);
  std::printf("sm_count=%d\n", sms);
  std::printf("l2_bytes=%d\n", l2);
  std::printf("max_persisting_l2_bytes=%d\n", persist);
  std::printf("shared_memory_per_sm_bytes=%d\n", smem);
  std::printf("registers_per_sm=%d\n", regs);
  std::printf("global_memory_bytes=%zu\n", p.totalGlobalMem);
  std::printf("sm_clock_max_khz=%d\n", clock_khz);
  std::printf("memory_clock_max_khz=%d\n", mem_clock_khz);
  std::printf("memory_bus_bits=%d\n", bus);
  std::printf("driver_version=%d.%d\n", driver / 1000, (driver % 1000) / 10);
  std::printf("runtime_version=%d.%d\n", runtime / 1000, (runtime % 1000) / 10);
  // The same GPU for NVML (the judge's telemetry), whatever CUDA_VISIBLE_DEVICES says.
  char bus_id[32] = {};
  if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, device) == cudaSuccess) std::printf("pci_bus_id=%s\n", bus_id);
  return 0;
}

}  // namespace

// Page-locks the shared region for the copies; false (the error cleared) where it cannot.
static bool pin(void* region, size_t bytes) {
  if (cudaHostRegister(region, bytes, cudaHostRegisterDefault) == cudaSuccess) return true;
  cudaGetLastError();
  return false;
}

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "--info") == 0) return print_info(argc >= 3 ? std::atoi(argv[2]) : 0);
  // --no-hold (the sanitizer run): the stream is not held during a call. Under compute-sanitizer
  // a launch may wait for the device, which the spinning hold kernel keeps busy until released.
  // ARENA_RUNNER_NO_HOLD=1 does the same for a person profiling under Nsight Compute
  // (bench/timing_quality.py ncu), which serializes launches too.
  // --no-sandbox: no seccomp profile (the judge passes it under compute-sanitizer, whose
  // injected code talks to its parent and writes files, and for ARENA_NO_SANDBOX=1).
  // --reads-confined-only (under Nsight Compute, for `arena-tool profile`): no seccomp profile
  // either, for the same reason, but file access stays confined (runner_landlock.hpp), with /tmp
  // and /dev/shm open for the profiler's own files: the solution still cannot read the task's
  // files nor write the compile cache.
  const char* no_hold_env = std::getenv("ARENA_RUNNER_NO_HOLD");
  bool hold = !(no_hold_env && std::strcmp(no_hold_env, "1") == 0);
  bool sandbox = true;
  bool reads_only = false;
  bool usage_ok = argc >= 5;
  for (int i = 5; i < argc; ++i) {
    if (std::strcmp(argv[i], "--no-hold") == 0) {
      hold = false;
    } else if (std::strcmp(argv[i], "--no-sandbox") == 0) {
      sandbox = false;
    } else if (std::strcmp(argv[i], "--reads-confined-only") == 0) {
      reads_only = true;
    } else {
      usage_ok = false;
    }
  }
  if (!usage_ok) {
    std::fprintf(stderr,
                 "usage: %s <socket-fd> <region-fd> <flush-bytes> <device> [--no-hold] "
                 "[--no-sandbox | --reads-confined-only]\n"
                 "       %s --info [device]\n(started by the judge; --info is for people)\n",
                 argv[0], argv[0]);
    return 2;
  }
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  // Load every kernel when the library loads. Lazy loading (the default) loads a kernel at its
  // first launch, which waits for the device to go idle: behind the stream hold, that deadlocks.
  setenv("CUDA_MODULE_LOADING", "EAGER", 1);
  // Under the sandbox the driver may not create files: were a kernel (the solution's, or a
  // library's loaded at its first use) JIT-compiled from PTX, its compute cache in ~/.nv would
  // be written. Solutions are built for the device's own architecture, so this changes nothing
  // for them; it keeps a PTX-only library from ending as a sandbox violation.
  if (sandbox || reads_only) setenv("CUDA_CACHE_DISABLE", "1", 1);
  arena::runner::g_socket = std::atoi(argv[1]);
  int region_fd = std::atoi(argv[2]);
  int device = std::atoi(argv[4]);

  check_setup(cudaSetDevice(device), "cudaSetDevice");
  check_setup(cudaFree(nullptr), "context creation");
  arena::cuda::L2Flush l2;
  if (!l2.init(device)) fail("runner setup failed: cannot allocate the L2 flush buffer", arena::protocol::kExitSetup);
  cudaStream_t stream = nullptr;
  check_setup(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  arena::cuda::DeviceHold device_hold;
  if (std::string why = device_hold.init(device); !why.empty())
    fail("runner setup failed at the hold: " + why, arena::protocol::kExitSetup);
  if (!device_hold.fills())
    std::fprintf(stderr, "arena-runner-cuda: the hold (%d blocks) cannot fill every SM of this device: work the "
                 "solution enqueues elsewhere may run before the window opens\n", device_hold.blocks());
  // Launches, copies and memsets a held call enqueues where they may start before the window
  // (stream_watch.hpp). Not where nothing is held: the sanitizer's and the profiler's runners,
  // whose tools hold CUPTI.
  arena::cuda::StreamWatch stream_watch;
  if (hold) {
    if (std::string why = stream_watch.start(); !why.empty())
      std::fprintf(stderr, "arena-runner-cuda: work on other streams is not watched: %s\n", why.c_str());
  }
  cudaEvent_t start = nullptr, stop = nullptr;
  check_setup(cudaEventCreate(&start), "cudaEventCreate");
  check_setup(cudaEventCreate(&stop), "cudaEventCreate");

  // The relocation slots its timing goes through, as bound at start (before the solution is
  // loaded): checked after every call. Not under a tool (sanitizer, profiler), whose injected
  // code may patch what it intercepts.
  arena::runner::RelocationSeal seal;
  std::string unsealed = "a tool's runner";
  if (sandbox && !reads_only && hold) {
    unsealed = seal.seal();
    if (!unsealed.empty())
      std::fprintf(stderr, "arena-runner-cuda: relocation slots not sealed: %s\n", unsealed.c_str());
  }

  // Up and waiting: from here on, what kLoad names.
  arena::runner::LoadRequest load;
  if (!arena::runner::receive_load(load)) return 0;  // started ahead of need, never used
  arena::runner::limit_address_space(load.address_space_bytes);
  arena::runner::InvokeFn invoke = arena::runner::load_solution(load.library.c_str());
  // The seccomp profile, after the context, the stream, the L2 buffer and the library are up
  // (the driver registers and loads the solution's kernels at dlopen: EAGER loading). What the
  // driver still does later stays allowed: ioctl and mmap on /dev/nvidia* (launches, copies,
  // allocations, events), opening /dev/nvidia* read-write (no O_CREAT), reading /proc and /sys,
  // threads (clone with CLONE_THREAD; glibc's clone3 falls back to clone on ENOSYS), futexes,
  // Unix sockets (an MPS daemon). Opening files for writing stays allowed by the filter here,
  // unlike on the CPU; Landlock (runner_landlock.hpp) lets it reach device files alone.
  std::string sandbox_state = std::string(arena::protocol::kSandboxOff) + "the judge asked for none";
  if (reads_only) {
    arena::runner::SandboxOutcome out;
    out.seccomp_off = "the runner runs under a profiler (file access stays confined)";
    out.reads_open = arena::runner::confine_files({load.library}, {"/tmp", "/dev/shm"});
    sandbox_state = arena::runner::describe(out);
  } else if (sandbox) {
    arena::runner::SandboxProfile profile;
    profile.deny_writing_files = false;
    profile.deny_executable_memory = true;
    profile.readable_files = {load.library};
    sandbox_state = arena::runner::describe(arena::runner::install_sandbox(profile));
  }
  arena::runner::reply_ready(sandbox_state);

  void* region = nullptr;
  void* device_region = nullptr;
  arena::cuda::ImportedMemory imported;  // the device region when the judge's device helper owns it
  size_t region_bytes = 0;
  // What call offsets may reach: the region, or the whole imported buffer (a timed lane's holds
  // its region at several placements: judge/placements.hpp).
  size_t device_bytes = 0;
  bool pinned = false;
  bool first_call = true;
  bool sweep_pending = false;  // a kFlush asked for a cold L2 before the next call
  std::vector<void*> pointers;
  for (;;) {
    Request q;
    int fd = -1;
    stream_watch.set_phase(arena::cuda::RunnerPhase::kIdle);
    if (!arena::runner::receive(q, &fd)) return 0;  // the judge closed the socket
    stream_watch.set_phase(arena::cuda::RunnerPhase::kRunner);
    if (fd >= 0 && q.op != arena::protocol::Op::kMap) {
      close(fd);
      fd = -1;
    }
    switch (q.op) {
      case arena::protocol::Op::kQuit:
        return 0;
      case arena::protocol::Op::kMap: {
        if (region != nullptr) {
          if (pinned && cudaHostUnregister(region) != cudaSuccess) cudaGetLastError();
          munmap(region, region_bytes);
        }
        pinned = false;
        if (imported.mapped()) {
          imported.unmap();
        } else if (device_region != nullptr) {
          cudaFree(device_region);
        }
        device_region = nullptr;
        region = mmap(nullptr, q.region_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, region_fd, 0);
        if (region == MAP_FAILED) fail(std::string("mmap: ") + std::strerror(errno), arena::protocol::kExitSetup);
        region_bytes = q.region_bytes;
        // Pinned, the copies run at full PCIe/NVLink speed (without, they still work): the
        // runner's own device buffers at once, as every call of theirs transfers.
        if ((q.call_flags & arena::protocol::kMapDeviceShared) == 0) pinned = pin(region, region_bytes);
        if ((q.call_flags & arena::protocol::kMapDeviceShared) != 0) {
          // The device helper's buffer: mapped here, owned there.
          if (fd < 0 || q.args[0] < region_bytes) fail("kMap: no device buffer came with the request", arena::protocol::kExitSetup);
          std::string why = imported.map(fd, q.args[0], device);
          close(fd);
          if (!why.empty()) fail("mapping the judge's device buffers: " + why, arena::protocol::kExitSetup);
          device_region = imported.pointer();
          device_bytes = q.args[0];
        } else {
          if (fd >= 0) close(fd);
          cudaError_t e = cudaMalloc(&device_region, region_bytes);
          if (e != cudaSuccess) fail_cuda("allocating the device buffers", e);
          device_bytes = region_bytes;
        }
        reply_ok();
        break;
      }
      case arena::protocol::Op::kUpload:
      case arena::protocol::Op::kDownload: {
        bool up = q.op == arena::protocol::Op::kUpload;
        if (region == nullptr) fail("transfer before map", arena::protocol::kExitSetup);
        // A region on the device plane is pinned at its first transfer, which its lane may never
        // make (only where the judge falls back to its host path).
        if (!pinned) pinned = pin(region, region_bytes);
        auto copy = [&](uint64_t offset, uint64_t bytes) {
          char* host = static_cast<char*>(region) + offset;
          char* dev = static_cast<char*>(device_region) + offset;
          return up ? cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice) : cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost);
        };
        if (q.range_count > static_cast<uint32_t>(arena::protocol::kMaxRanges))
          fail("malformed transfer request", arena::protocol::kExitSetup);
        cudaError_t e = q.range_count == 0 ? copy(0, region_bytes) : cudaSuccess;
        for (uint32_t i = 0; i < q.range_count && e == cudaSuccess; ++i) {
          uint64_t offset = q.ranges[i][0], bytes = q.ranges[i][1];
          if (offset > region_bytes || bytes > region_bytes - offset) fail("transfer range outside the region", arena::protocol::kExitSetup);
          e = copy(offset, bytes);
        }
        if (e != cudaSuccess) fail_cuda(up ? "copying the inputs to the device" : "copying the outputs back", e);
        reply_ok();
        break;
      }
      case arena::protocol::Op::kFlush: {
        // The persisting-L2 state is undone now; the sweep comes with the next call: in its hold,
        // after the release (hold_kernel.cuh: so that a copy the call starts on a copy engine
        // cannot leave the inputs in the L2), or on the stream before the call where not held.
        l2.undo(stream);
        sweep_pending = true;
        reply_ok();
        break;
      }
      case arena::protocol::Op::kCall: {
        arena::runner::resolve_pointers(q, device_region, device_bytes, pointers);
        // The first call of a runner is never held: a library's one-time setup at its first use
        // may wait for work of its own on another stream, which the hold keeps off the device.
        // It is a checked call or a warm-up, never a timed one.
        const bool hold_now = hold && !first_call && (q.call_flags & arena::protocol::kCallNoHold) == 0;
        first_call = false;
        // --graph: the calls are captured into one graph before the window opens, so capture and
        // instantiation stay out of it; the window holds one replay of all of them.
        cudaGraphExec_t replay = nullptr;
        if (q.graph_launches > 0) {
          cudaGraph_t graph = nullptr;
          // Watched as a held call is: work the calls enqueue where the capture does not reach
          // runs now, before the replay's window (counted with the next watched call's reply).
          cudaError_t e = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
          if (e == cudaSuccess) stream_watch.arm(stream);
          stream_watch.set_phase(arena::cuda::RunnerPhase::kSolution);
          for (uint32_t i = 0; e == cudaSuccess && i < q.graph_launches; ++i) invoke(pointers.data(), q.scalars, stream);
          stream_watch.set_phase(arena::cuda::RunnerPhase::kRunner);
          stream_watch.disarm();
          if (e == cudaSuccess) e = cudaStreamEndCapture(stream, &graph);
          if (cudaError_t at_launch = cudaGetLastError(); e == cudaSuccess) e = at_launch;
          if (e == cudaSuccess) e = cudaGraphInstantiate(&replay, graph, 0);
          if (graph != nullptr) cudaGraphDestroy(graph);
          if (e == cudaSuccess) e = cudaGraphUpload(replay, stream);
          if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
          if (e != cudaSuccess)
            fail("--graph: the entry point could not be captured into a CUDA graph: " + describe(e) +
                     " (it must only enqueue work on `stream`: no allocation, synchronization or host callbacks)",
                 arena::protocol::kExitLaunch);
        }
        const bool sweep_now = sweep_pending;
        sweep_pending = false;
        if (sweep_now && !hold_now) {
          // Not held (a warm-up, a profiler's or sanitizer's runner): swept and waited for, as
          // before any cold sample, so the call starts on an idle device.
          l2.sweep(stream);
          if (cudaError_t e = cudaStreamSynchronize(stream); e != cudaSuccess) fail_cuda("evicting the L2", e);
        }
        // Armed from before the hold to after the release, so that the judge's own records are
        // seen too (stream_watch.hpp); a --graph replay as a call.
        const bool watch_now = hold_now && stream_watch.on();
        if (watch_now) stream_watch.arm(stream);
        if (hold_now) {
          const arena::cuda::HoldSweep sweep =
              sweep_now ? arena::cuda::HoldSweep{l2.words(), l2.word_count()} : arena::cuda::HoldSweep{};
          if (cudaError_t e = device_hold.enqueue(stream, hold_limit_ns(q.args[0]), sweep); e != cudaSuccess)
            fail_cuda("launching the hold", e);
          if (!device_hold.wait_resident(std::min(kResidentLimitNs, hold_limit_ns(q.args[0]) / 2))) {
            // No sync: the work that kept the SMs busy may never end. The process's exit ends it.
            device_hold.release();
            fail("the judge's hold could not take every SM before the call: other work was running on "
                 "the device (work the solution started outside its calls, from a thread of its own or a kernel "
                 "that outlived its call; or another process's, under MPS)",
                 kExitCudaError);
          }
        }
        cudaEventRecord(start, stream);
        if (replay != nullptr) {
          cudaGraphLaunch(replay, stream);
        } else {
          stream_watch.set_phase(arena::cuda::RunnerPhase::kSolution);
          invoke(pointers.data(), q.scalars, stream);
          stream_watch.set_phase(arena::cuda::RunnerPhase::kRunner);
        }
        cudaError_t launch = cudaGetLastError();
        if (watch_now) stream_watch.expect_a_call();  // the stop record: seen unless CUPTI went blind
        cudaEventRecord(stop, stream);
        uint64_t t0 = now_ns();
        if (hold_now) device_hold.release();
        // What the watch counted since the last watched call (work of the solution's threads
        // between calls, a --graph capture's) comes with this one.
        arena::cuda::WatchLedger::Count off_stream;
        const bool blind = watch_now && stream_watch.disarm();
        if (watch_now) off_stream = stream_watch.take();
        if (blind) {
          off_stream.count = std::max<uint64_t>(off_stream.count, 1);
          off_stream.first = "none seen: the stream watch (CUPTI) was switched off inside the call";
        }
        cudaError_t on_stream = cudaStreamSynchronize(stream);
        cudaError_t on_device = cudaDeviceSynchronize();  // also waits for work on any other stream
        uint64_t t1 = now_ns();
        if (launch != cudaSuccess) fail_cuda("at launch", launch);
        if (on_stream != cudaSuccess) fail_cuda("while running", on_stream);
        if (on_device != cudaSuccess) fail_cuda("while running", on_device);
        const arena::cuda::DeviceHold::Outcome held = hold_now ? device_hold.outcome() : arena::cuda::DeviceHold::Outcome{};
        const bool blocked = held.gave_up;
        if (replay != nullptr) cudaGraphExecDestroy(replay);
        if (held.sweep_unfinished)
          fail("the hold's L2 sweep did not end on every SM together (its blocks waited 100 ms for each other): "
               "something else shared the SMs during the call (another process's work, under MPS or time-slicing)",
               kExitCudaError);
        if (blocked)
          fail("the entry point blocked while the device was held: it must only enqueue work on `stream` "
               "(no cudaStreamSynchronize, cudaDeviceSynchronize or cudaFree inside it, and no waiting for work "
               "of its own on another stream)",
               kExitCudaError);
        float ms = 0;
        cudaError_t e = cudaEventElapsedTime(&ms, start, stop);
        if (e != cudaSuccess) fail_cuda("reading the events", e);
        Reply r;
        r.elapsed_ns = static_cast<uint64_t>(static_cast<double>(ms) * 1e6);
        if (unsealed.empty()) {
          std::string changed = seal.check();
          // The runtime reaches the driver through tables of its own, out of the seal's reach:
          // the driver's own reading of the same events must agree.
          float driver_ms = 0;
          if (changed.empty() &&
              cuEventElapsedTime(&driver_ms, reinterpret_cast<CUevent>(start), reinterpret_cast<CUevent>(stop)) ==
                  CUDA_SUCCESS &&
              std::abs(driver_ms - ms) > std::max(0.0005f, 1e-3f * ms))  // 0.5 us, 0.1 %: rounding
            changed = "cudaEventElapsedTime read " + std::to_string(ms) + " ms where the driver's cuEventElapsedTime read " +
                      std::to_string(driver_ms) + " ms for the same events";
          arena::runner::put_text(r.tampered, sizeof r.tampered, changed);
        }
        // The hold's sweep ran between t0 and the start event: the judge's work, taken off.
        r.all_work_ns = (t1 - t0) - std::min<uint64_t>(held.sweep_ns, t1 - t0);
        r.result[0] = off_stream.count;
        r.result[1] = watch_now ? 1 : 0;
        std::snprintf(r.message, sizeof r.message, "%s", off_stream.first.c_str());
        send_reply(r);
        break;
      }
      default:
        if (fd >= 0) close(fd);
        fail("unknown request", arena::protocol::kExitSetup);
    }
  }
}
