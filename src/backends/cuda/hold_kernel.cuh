// The stream hold (nvbench's "blocking kernel"): a one-thread kernel that spins until the host
// releases it, so that the start event, the launch and the stop event are all enqueued before
// any of them runs, and host launch latency stays out of the timed window.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace arena::cuda {

__device__ inline uint64_t global_timer_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Spins until *release != 0, or gives up after `limit_ns` and sets *gave_up (the solution
// blocked on the held stream: it synchronized, or freed memory, inside the entry point).
__global__ void hold_stream(const volatile int* release, int* gave_up, uint64_t limit_ns) {
  uint64_t start = global_timer_ns();
  while (*release == 0) {
    if (global_timer_ns() - start > limit_ns) {
      *gave_up = 1;
      return;
    }
  }
}

}  // namespace arena::cuda
