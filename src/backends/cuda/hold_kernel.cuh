// The hold (nvbench's "blocking kernel", widened to the whole device): a kernel that spins until
// the host releases it, so that the start event, the launch and the stop event are all enqueued
// before any of them runs, and host launch latency stays out of the timed window.
//
// nvbench holds the stream with one thread. Here the hold fills every SM (every warp slot, with
// blocks that cannot share an SM with anything else), so that nothing the entry point enqueues
// anywhere runs before the window opens: work on a stream of the solution's own, on the legacy
// default stream or from a library handle waits behind the hold like the work on the judge's
// stream, and whatever of it outlasts the window is seen by the runner's device-wide sync (the
// verdict's `work_outside_stream`). With a one-thread hold, such work ran on the other SMs while
// the host was still enqueueing, and an entry point that waited for it (cudaStreamSynchronize
// on its own stream) had its whole result ready before the start event: a head start no check
// saw (tests/redteam/cuda/head_start_side_stream.cu).
//
// Copies on the copy engines are not held (device-to-device copies are: on an H100 a call that
// waited for one blocked): a call can copy its inputs to the host on a stream of its own, which
// runs while the host is still enqueueing and may leave the inputs in the L2 for the timed kernel
// (tests/redteam/cuda/head_start_copy_engine.cu; stream_watch.hpp flags such copies). So for a cold
// sample the hold sweeps the L2 itself, after the release: every block reads its share of the
// flush buffer (l2_flush.cuh), then waits for the others, and only then leaves. Whatever a copy
// brought into the L2 while the call was being enqueued is evicted before the start event; the
// blocks leave together, so the sweep gives work queued on other streams no head start.
// What is left: as the hold's blocks leave, work queued on other streams takes the freed SMs
// before the judge's stream has passed its start event (bench/hold_lead: ~4 us on an H100; work
// on streams not forked from the judge's is flagged by stream_watch.hpp). Under MPS other
// clients' kernels share the SMs.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

namespace arena::cuda {

__device__ inline uint64_t global_timer_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Threads per hold block, and the fewest blocks per SM the compiler must allow (it keeps the
// kernel's registers to 65536 / (256 x 8) = 32 per thread, so 8 blocks, 2048 threads, fit on an SM).
inline constexpr int kHoldThreads = 256;
inline constexpr int kHoldBlocksPerSm = 8;

// The hold's state on the device, zeroed before every hold.
struct HoldState {
  uint64_t released_ns;  // %globaltimer when block 0 saw the release
  uint64_t swept_ns;     // %globaltimer when the last block had swept its share (0: no sweep)
  int arrived;   // blocks running so far
  int released;  // block 0 saw the host's release and passed it on
  int gave_up;   // a block timed out: the solution blocked inside its call
  int swept;     // blocks done with their share of the L2 sweep
  int sweep_unfinished;  // a block left the sweep's barrier at its time limit, not with the others
  int sink;      // never written: keeps the sweep's loads
};

// The L2 sweep a hold makes after its release (a cold sample): `count` 16-byte words to read.
struct HoldSweep {
  const uint4* buffer = nullptr;
  size_t count = 0;
};

// How long a block that has swept its share waits for the others (all are resident, so they
// take tens of microseconds; the bound only keeps a broken hold from spinning forever).
inline constexpr uint64_t kSweepBarrierLimitNs = 100'000'000ull;

// The host's two words (mapped host memory): the release, and the hold's answer that every
// block is on an SM.
struct HoldFlags {
  int release;
  int resident;
};

// The last block to arrive tells the host that the hold is resident. Block 0 polls the host's
// release and passes it on through device memory, which every other block polls; with `limit_ns`
// gone by, a block sets gave_up and leaves (the solution blocked on the held stream: it
// synchronized, or freed memory, inside the entry point, or waited for work the hold keeps off
// the device). The other threads of a block wait at the barrier, holding their warp slots.
// With a sweep, after the release every thread reads its share of the buffer, and each block
// leaves only when every block has swept (none gave up: then the call fails anyway).
__global__ void __launch_bounds__(kHoldThreads, kHoldBlocksPerSm)
    hold_device(volatile HoldFlags* host, HoldState* state, uint64_t limit_ns, HoldSweep sweep) {
  if (threadIdx.x == 0) {
    volatile HoldState* s = state;
    const uint64_t start = global_timer_ns();
    // The last to arrive, unless a block already gave up (then they were never all resident).
    if (atomicAdd(&state->arrived, 1) == static_cast<int>(gridDim.x) - 1 && s->gave_up == 0) {
      host->resident = 1;
      __threadfence_system();
    }
    for (;;) {
      if (blockIdx.x == 0 ? host->release != 0 : s->released != 0) break;
      if (global_timer_ns() - start > limit_ns) {
        s->gave_up = 1;
        break;
      }
      if (blockIdx.x != 0) __nanosleep(32);
    }
    if (blockIdx.x == 0) {
      state->released_ns = global_timer_ns();
      s->released = 1;
      __threadfence();
    }
  }
  __syncthreads();
  if (sweep.count == 0) return;
  uint4 acc = make_uint4(0, 0, 0, 0);
  const size_t step = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < sweep.count; i += step) {
    const uint4 v = sweep.buffer[i];
    acc.x ^= v.x;
    acc.y ^= v.y;
    acc.z ^= v.z;
    acc.w ^= v.w;
  }
  if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x9E3779B9u) state->sink = 1;  // never true
  __syncthreads();
  if (threadIdx.x == 0) {
    volatile HoldState* s = state;
    __threadfence();
    if (atomicAdd(&state->swept, 1) == static_cast<int>(gridDim.x) - 1) state->swept_ns = global_timer_ns();
    const uint64_t since = global_timer_ns();
    while (s->swept < static_cast<int>(gridDim.x) && s->gave_up == 0) {
      if (global_timer_ns() - since > kSweepBarrierLimitNs) {
        s->sweep_unfinished = 1;  // the blocks leave apart: the runner fails the call, saying why
        break;
      }
      __nanosleep(32);
    }
  }
  __syncthreads();
}

// One process's hold: the release flag, the device state and the grid that fills the device.
class DeviceHold {
 public:
  // Sets the hold up on the current device. Returns "" or what failed. fills() says whether the
  // grid takes every warp slot of every SM (the occupancy API's answer for this kernel).
  // `most_blocks` > 0 caps the grid (bench/hold_lead compares a one-block hold); the runner
  // never caps it.
  std::string init(int device, int most_blocks = 0) {
    int sms = 0, threads_per_sm = 0, per_sm = 0;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, hold_device, kHoldThreads, 0) != cudaSuccess)
      return "querying the SMs and the hold kernel's occupancy";
    const int wanted = threads_per_sm / kHoldThreads;
    per_sm = per_sm < wanted ? per_sm : wanted;
    if (per_sm < 1) per_sm = 1;
    blocks_ = sms * per_sm;
    fills_ = per_sm * kHoldThreads >= threads_per_sm;
    if (most_blocks > 0 && most_blocks < blocks_) {
      blocks_ = most_blocks;
      fills_ = false;
    }
    void* host = nullptr;
    if (cudaHostAlloc(&host, sizeof(HoldFlags), cudaHostAllocMapped) != cudaSuccess) return "cudaHostAlloc";
    host_ = static_cast<volatile HoldFlags*>(host);
    void* dev = nullptr;
    if (cudaHostGetDevicePointer(&dev, host, 0) != cudaSuccess) return "cudaHostGetDevicePointer";
    dev_ = static_cast<volatile HoldFlags*>(dev);
    if (cudaMalloc(&state_, sizeof(HoldState)) != cudaSuccess) return "cudaMalloc";
    return "";
  }

  // Arms the flags and enqueues the hold on `stream`; the error of the memset or the launch.
  // `sweep`: the L2 sweep to make after the release (a cold sample), or none.
  cudaError_t enqueue(cudaStream_t stream, uint64_t limit_ns, HoldSweep sweep = {}) {
    host_->release = 0;
    host_->resident = 0;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    cudaError_t e = cudaMemsetAsync(state_, 0, sizeof(HoldState), stream);
    if (e != cudaSuccess) return e;
    hold_device<<<blocks_, kHoldThreads, 0, stream>>>(dev_, state_, limit_ns, sweep);
    return cudaGetLastError();
  }

  // Waits until every block of the hold is on an SM, so that nothing enqueued after this can run
  // before the release. False after `limit_ns`: something else kept SMs busy (work the solution
  // started outside any call, from a thread of its own or a kernel that outlived its call; under
  // MPS, another client's kernels).
  bool wait_resident(uint64_t limit_ns) const {
    const auto start = std::chrono::steady_clock::now();
    while (host_->resident == 0) {
      const auto waited = std::chrono::steady_clock::now() - start;
      if (static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(waited).count()) > limit_ns)
        return false;
    }
    return true;
  }

  void release() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    host_->release = 1;
  }

  // After the stream has run: whether a block timed out, and how long the sweep took on the
  // device's clock from the release (0 without one), which the runner takes off its host time
  // around the call: the sweep is the judge's work, not the solution's.
  struct Outcome {
    bool gave_up = false;
    bool sweep_unfinished = false;  // the blocks did not leave the sweep together
    uint64_t sweep_ns = 0;
  };
  Outcome outcome() const {
    HoldState s{};
    if (cudaMemcpy(&s, state_, sizeof s, cudaMemcpyDeviceToHost) != cudaSuccess) return {};
    Outcome o;
    o.gave_up = s.gave_up != 0;
    o.sweep_unfinished = s.sweep_unfinished != 0 && !o.gave_up;
    if (s.swept_ns > s.released_ns && s.released_ns != 0) o.sweep_ns = s.swept_ns - s.released_ns;
    return o;
  }

  int blocks() const { return blocks_; }
  bool fills() const { return fills_; }

 private:
  volatile HoldFlags* host_ = nullptr;  // mapped host memory, as the host sees it
  volatile HoldFlags* dev_ = nullptr;   // the same, as the device sees it
  HoldState* state_ = nullptr;
  int blocks_ = 1;
  bool fills_ = false;
};

}  // namespace arena::cuda
