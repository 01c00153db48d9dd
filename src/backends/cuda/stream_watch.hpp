// The hold keeps kernels off the SMs while a call is enqueued, but not for ever: as its blocks
// leave, kernels queued on other streams start ~4 us before the judge's first kernel (H100), and
// the copy engines are not held at all, so a copy to or from the host on a stream of the
// solution's own runs at once and can be done before the timed window opens. StreamWatch sees,
// through CUPTI's callback API, every launch, copy, memset and other stream work entry point of
// the CUDA runtime and driver (stream_watch_cbids.hpp), every event record and stream wait, and
// stream, event and context creation, and counts (watch_ledger.hpp): while armed around a held
// call or a --graph capture, work enqueued where it is not ordered after the window's start
// (stream_order.hpp: the judge's stream and streams forked from it by events recorded in the call
// are; a stream of the solution's own, the legacy default stream, the synchronous copies are
// not); at any time, work a thread of the solution's own enqueues outside its calls, and
// contexts of the solution's own. The runner reports the count; the judge flags the timing
// (`work_outside_stream`).
//
// It lives in the solution's process, like the events: a solution that switches CUPTI off blinds
// it (timer tampering, docs/integrity.md); that much is noticed (disarm()'s blind: the judge's
// own stop record after the call was not seen). A stream capture begun in a timed call is counted.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "backends/cuda/watch_ledger.hpp"

namespace arena::cuda {

class StreamWatch {
 public:
  // Subscribes to CUPTI (one subscriber per process: not under ncu or compute-sanitizer, whose
  // runners are not held) on the runner's thread. Returns "" or why the watch is off.
  std::string start();
  bool on() const { return on_; }

  // The runner's thread says what it is doing (watch_ledger.hpp). Outside the solution's code
  // the thread's signals are blocked, but for those that report faults.
  void set_phase(RunnerPhase phase);
  // From now until disarm(), work not ordered after `judge`'s next operation is counted. The
  // runner arms before its hold and disarms after the release, so that the judge's own records
  // are seen too.
  void arm(cudaStream_t judge);
  // From here the watch must see another call (the judge's stop record) before disarm(), else
  // it went blind during the call.
  void expect_a_call();
  // True where it went blind: CUPTI was switched off (the solution's process can do that), so
  // the count means nothing.
  bool disarm();
  // What was counted since the last take().
  WatchLedger::Count take();

 private:
  bool on_ = false;
};

}  // namespace arena::cuda
