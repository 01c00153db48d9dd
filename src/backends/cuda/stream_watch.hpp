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
// It lives in the solution's process, like the events: a solution that switches CUPTI off blinds
// it (timer tampering, docs/integrity.md); that much is noticed (Seen::blind: the judge's own
// stop record after the call was not seen). A stream capture begun in a timed call is counted. Not armed
// for --graph (the capture is the judge's, before the hold). Not covered: prefetches, stream
// memory operations (cuStreamWriteValue), batch decompression, external semaphores.
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

  // From now until disarm(), work not ordered after `judge`'s next operation is counted. The
  // runner arms before its hold and disarms after the release, so that work a thread of the
  // solution's enqueues around the call is seen too, and so are the judge's own records.
  void arm(cudaStream_t judge);

  // From here the watch must see another call (the judge's stop record) before disarm(), else
  // it went blind during the call.
  void expect_a_call();

  struct Seen {
    uint64_t count = 0;
    std::string first;  // the first one's function name, as CUPTI names it
    // On, but the judge's own call after expect_a_call() was not seen: CUPTI was switched off
    // (the solution's process can do that), so the count means nothing.
    bool blind = false;
  };
  Seen disarm();

 private:
  bool on_ = false;
};

}  // namespace arena::cuda
