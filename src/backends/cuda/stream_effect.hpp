// What one watched CUDA entry point does to the order StreamWatch keeps (stream_watch.hpp), read
// from the parameters CUPTI hands its callback: enqueue work on a stream, record an event, wait
// on one, destroy or create a handle, or make a context of the solution's own. Pure: the callback
// data in, an effect out; tests/unit/stream_effect_test.cpp fills the parameter structs by hand.
#pragma once

#include <cupti.h>  // the callback ids and the parameter structs of the runtime and driver entry points

namespace arena::cuda {

struct StreamEffect {
  enum class Kind {
    kWork,         // a launch, copy, memset or other stream work: judged where it is enqueued
    kRecord,       // an event recorded on a stream (applied once it succeeded)
    kWait,         // a stream made to wait on an event (applied once it succeeded)
    kForgetEvent,  // a handle about to be destroyed: a new one may come at its address
    kForgetStream,
    kCreated,  // a new stream or event, written to `created` once the call succeeded
    kContext,  // a context other than the runner's, or a reset: counted at any time
  };
  Kind kind = Kind::kWork;
  const void* stream = nullptr;
  bool known = false;  // false: work on a stream the parameters do not name, never ordered
  const void* event = nullptr;
  const void* const* created = nullptr;

  static StreamEffect work_on(const void* stream) {
    return {Kind::kWork, stream, true, nullptr, nullptr};
  }
  static StreamEffect record(const void* event, const void* stream) {
    return {Kind::kRecord, stream, true, event, nullptr};
  }
  static StreamEffect wait(const void* stream, const void* event) {
    return {Kind::kWait, stream, true, event, nullptr};
  }
  static StreamEffect forget_event(const void* event) {
    return {Kind::kForgetEvent, nullptr, true, event, nullptr};
  }
  static StreamEffect forget_stream(const void* stream) {
    return {Kind::kForgetStream, stream, true, nullptr, nullptr};
  }
  static StreamEffect new_handle(const void* const* out) {
    return {Kind::kCreated, nullptr, true, nullptr, out};
  }
  static StreamEffect context() { return {Kind::kContext, nullptr, false, nullptr, nullptr}; }

  // (Spelled out: the runner's .cu is C++17.)
  bool operator==(const StreamEffect& o) const {
    return kind == o.kind && stream == o.stream && known == o.known && event == o.event &&
           created == o.created;
  }
};

// The effect of runtime entry point `cbid` with parameters `params` (CUpti_CallbackData's
// functionParams). An id outside the watched lists (stream_watch_cbids.hpp) reads as work on an
// unknown stream, never ordered.
StreamEffect runtime_effect(CUpti_CallbackId cbid, const void* params);
StreamEffect driver_effect(CUpti_CallbackId cbid, const void* params);

}  // namespace arena::cuda
