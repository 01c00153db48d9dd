// The copy engines are not held (hold_kernel.cuh): a copy or memset that a call enqueues on any
// stream but the one it was given starts at once, while the host is still enqueueing, and can be
// done before the timed window opens (the output of a copy-like task, or inputs brought into the
// L2). CopyWatch sees every copy and memset entry point of the CUDA runtime and driver through
// CUPTI's callback API and, while armed around a held call, counts those enqueued anywhere but on
// the judge's stream (the legacy default stream and the synchronous forms included). The runner
// reports the count; the judge flags the timing (`work_outside_stream`).
//
// It lives in the solution's process, like the events: a solution that unsubscribes CUPTI blinds
// it (timer tampering, docs/integrity.md). Not armed for a graph's capture (copies on a stream
// forked into the capture become graph nodes, inside the window).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

namespace arena::cuda {

class CopyWatch {
 public:
  // Subscribes to CUPTI (one subscriber per process: not under ncu or compute-sanitizer, whose
  // runners are not held). Returns "" or why the watch is off.
  std::string start();
  bool on() const { return on_; }

  // From now until disarm(), copies and memsets on any stream but `allowed` are counted.
  void arm(cudaStream_t allowed);

  struct Seen {
    uint64_t count = 0;
    std::string first;  // the first one's function name, as CUPTI names it
  };
  Seen disarm();

 private:
  bool on_ = false;
};

}  // namespace arena::cuda
