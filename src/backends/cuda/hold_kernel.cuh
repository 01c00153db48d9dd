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
// saw (tests/redteam/cuda/head_start_side_stream.cu). What is left: copies on the copy engines
// are not held, and as the hold's blocks leave, work queued on other streams takes the freed
// SMs before the judge's stream has passed its start event and launched (about the window's
// fixed part, 1-2 us, not measured yet). Under MPS other clients' kernels share the SMs.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
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
  int arrived;   // blocks running so far
  int released;  // block 0 saw the host's release and passed it on
  int gave_up;   // a block timed out: the solution blocked inside its call
};

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
__global__ void __launch_bounds__(kHoldThreads, kHoldBlocksPerSm)
    hold_device(volatile HoldFlags* host, HoldState* state, uint64_t limit_ns) {
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
      s->released = 1;
      __threadfence();
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
  cudaError_t enqueue(cudaStream_t stream, uint64_t limit_ns) {
    host_->release = 0;
    host_->resident = 0;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    cudaError_t e = cudaMemsetAsync(state_, 0, sizeof(HoldState), stream);
    if (e != cudaSuccess) return e;
    hold_device<<<blocks_, kHoldThreads, 0, stream>>>(dev_, state_, limit_ns);
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

  // After the stream has run: whether a block timed out.
  bool gave_up() const {
    HoldState s{};
    return cudaMemcpy(&s, state_, sizeof s, cudaMemcpyDeviceToHost) == cudaSuccess && s.gave_up != 0;
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
