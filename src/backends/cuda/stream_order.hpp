// Which work a held call enqueues is ordered after the timed window's start. The start event is
// on the judge's stream, so everything enqueued there during the call starts after it; so does
// everything on a stream that waits for an event recorded during the call on an ordered stream
// (a fork: cudaEventRecord(e, stream); cudaStreamWaitEvent(side, e)), and, in turn, on streams
// forked from those. Anything else (a stream of the solution's own, the legacy default stream, a
// stream that waits only on events recorded before the call) may start as soon as the hold lets
// it: a copy on a copy engine at once, a kernel as the hold's blocks leave, ~4 us before the
// judge's first kernel on an H100 (docs/timing.md, "What is left of a head start").
//
// Pure bookkeeping over opaque handles (streams and events as pointers): StreamWatch
// (stream_watch.hpp) feeds it from CUPTI's callbacks, a record or wait once it has succeeded.
// Not thread safe: the caller serializes.
#pragma once

#include <unordered_set>

namespace arena::cuda {

class StreamOrder {
 public:
  // A held call begins: only `judge` is ordered, no event is.
  void begin(const void* judge);
  // cudaEventRecord(event, stream): the event is ordered iff the stream is (a re-record on an
  // unordered stream makes an ordered event unordered again).
  void record(const void* event, const void* stream);
  // cudaStreamWaitEvent(stream, event): waiting on an ordered event orders the stream; waiting on
  // anything else leaves it as it was.
  void wait(const void* stream, const void* event);
  // cudaEventDestroy / cudaStreamDestroy: a new handle may come at the same address.
  void forget_event(const void* event);
  void forget_stream(const void* stream);
  // Whether work enqueued now on `stream` starts after the window's start.
  bool ordered(const void* stream) const;
  // The default streams' handles (0, cudaStreamLegacy, cudaStreamPerThread) name a different
  // stream by entry point and by thread: never ordered.
  static bool is_default(const void* stream);

 private:
  std::unordered_set<const void*> streams_;
  std::unordered_set<const void*> events_;
};

}  // namespace arena::cuda
