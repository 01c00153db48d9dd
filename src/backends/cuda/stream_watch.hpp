// The hold keeps kernels off the SMs while a call is enqueued, but not for ever: as its blocks
// leave, kernels queued on other streams start ~4 us before the judge's first kernel (H100), and
// the copy engines are not held at all, so a copy to or from the host on a stream of the
// solution's own runs at once and can be done before the timed window opens. StreamWatch sees,
// through CUPTI's callback API, every launch, copy and memset entry point of the CUDA runtime and
// driver, and every event record and stream wait, and while armed around a held call counts the
// launches, copies and memsets enqueued where they are not ordered after the window's start
// (stream_order.hpp: the judge's stream and streams forked from it by events recorded in the
// call are; a stream of the solution's own, the legacy default stream, the synchronous copies
// are not). The runner reports the count; the judge flags the timing (`work_outside_stream`).
//
// It lives in the solution's process, like the events: a solution that unsubscribes CUPTI blinds
// it (timer tampering, docs/integrity.md). Not armed for a graph's capture (work on a stream
// forked into the capture becomes graph nodes, inside the window).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

namespace arena::cuda {

class StreamWatch {
 public:
  // Subscribes to CUPTI (one subscriber per process: not under ncu or compute-sanitizer, whose
  // runners are not held). Returns "" or why the watch is off.
  std::string start();
  bool on() const { return on_; }

  // From now until disarm(), work not ordered after `judge`'s next operation is counted.
  void arm(cudaStream_t judge);

  struct Seen {
    uint64_t count = 0;
    std::string first;  // the first one's function name, as CUPTI names it
  };
  Seen disarm();

 private:
  bool on_ = false;
};

}  // namespace arena::cuda
