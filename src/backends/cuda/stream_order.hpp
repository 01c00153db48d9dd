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
// (stream_watch.hpp) feeds it from CUPTI's callbacks, at a call's entry and at its exit. Calls
// on several threads overlap, and the driver's order among overlapping calls is not the order of
// their callbacks: a record that overlaps another record of the same event orders nothing, and a
// wait orders its stream only if its event was ordered, with no record of it in flight, at both
// its entry and its exit. Not thread safe: the caller serializes.
#pragma once

#include <unordered_map>
#include <unordered_set>

namespace arena::cuda {

class StreamOrder {
 public:
  // A held call begins: only `judge` is ordered, no event is.
  void begin(const void* judge);
  // cudaEventRecord(event, stream): the event is ordered iff the stream is (a re-record on an
  // unordered stream makes an ordered event unordered again). From its entry the event is not
  // ordered; at its exit, if it succeeded and no other record of the event overlapped it, it is
  // iff the stream is.
  void record_begin(const void* event);
  void record_end(const void* event, const void* stream, bool succeeded);
  // cudaStreamWaitEvent(stream, event): waiting on an ordered event orders the stream; waiting on
  // anything else leaves it as it was. wait_begin's answer goes to wait_end.
  bool wait_begin(const void* event) const;
  void wait_end(const void* stream, const void* event, bool succeeded, bool ordered_at_begin);
  // A record or a wait that did not overlap any other call.
  void record(const void* event, const void* stream);
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
  struct Recording {
    int calls = 0;            // records of the event between their entry and their exit
    bool overlapped = false;  // two of them were at once: neither orders it
  };
  std::unordered_map<const void*, Recording> recording_;  // kept across begin(): calls in flight
};

}  // namespace arena::cuda
