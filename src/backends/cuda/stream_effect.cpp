#include "backends/cuda/stream_effect.hpp"

#include "backends/cuda/stream_watch_cbids.hpp"

namespace arena::cuda {
namespace {

template <typename Handle>
StreamEffect created(Handle* const* out) {
  return StreamEffect::new_handle(reinterpret_cast<const void* const*>(out));
}
using Fx = StreamEffect;

template <typename Params>
const Params& as(const void* params) {
  return *static_cast<const Params*>(params);
}

}  // namespace

StreamEffect runtime_effect(CUpti_CallbackId cbid, const void* p) {
  if (p == nullptr) return StreamEffect{};
  switch (cbid) {
#define ARENA_ON_A_STREAM(name)         \
  case CUPTI_RUNTIME_TRACE_CBID_##name: \
    return Fx::work_on(as<name##_params>(p).stream);
    ARENA_RUNTIME_COPIES_ON_A_STREAM(ARENA_ON_A_STREAM)
    ARENA_RUNTIME_LAUNCHES_ON_A_STREAM(ARENA_ON_A_STREAM)
#undef ARENA_ON_A_STREAM
#define ARENA_WITH_A_CONFIG(name)                                 \
  case CUPTI_RUNTIME_TRACE_CBID_##name:                           \
    return as<name##_params>(p).config != nullptr                 \
               ? Fx::work_on(as<name##_params>(p).config->stream) \
               : StreamEffect{};
    ARENA_RUNTIME_LAUNCHES_WITH_A_CONFIG(ARENA_WITH_A_CONFIG)
#undef ARENA_WITH_A_CONFIG
#define ARENA_RECORD(name)              \
  case CUPTI_RUNTIME_TRACE_CBID_##name: \
    return Fx::record(as<name##_params>(p).event, as<name##_params>(p).stream);
    ARENA_RUNTIME_EVENT_RECORDS(ARENA_RECORD)
#undef ARENA_RECORD
#define ARENA_WAIT(name)                \
  case CUPTI_RUNTIME_TRACE_CBID_##name: \
    return Fx::wait(as<name##_params>(p).stream, as<name##_params>(p).event);
    ARENA_RUNTIME_STREAM_WAITS(ARENA_WAIT)
#undef ARENA_WAIT
#define ARENA_FORGET_EVENT(name)        \
  case CUPTI_RUNTIME_TRACE_CBID_##name: \
    return Fx::forget_event(as<name##_params>(p).event);
    ARENA_RUNTIME_EVENT_DESTROYS(ARENA_FORGET_EVENT)
#undef ARENA_FORGET_EVENT
#define ARENA_FORGET_STREAM(name)       \
  case CUPTI_RUNTIME_TRACE_CBID_##name: \
    return Fx::forget_stream(as<name##_params>(p).stream);
    ARENA_RUNTIME_STREAM_DESTROYS(ARENA_FORGET_STREAM)
#undef ARENA_FORGET_STREAM
#define ARENA_CREATED(name, field)      \
  case CUPTI_RUNTIME_TRACE_CBID_##name: \
    return created(as<name##_params>(p).field);
    ARENA_RUNTIME_STREAM_CREATES(ARENA_CREATED)
    ARENA_RUNTIME_EVENT_CREATES(ARENA_CREATED)
#undef ARENA_CREATED
#define ARENA_CONTEXT(name) case CUPTI_RUNTIME_TRACE_CBID_##name:
    ARENA_RUNTIME_CONTEXTS(ARENA_CONTEXT)
#undef ARENA_CONTEXT
    return Fx::context();
    default:
      return StreamEffect{};  // a synchronous copy or memset, other stream work, a deprecated
                              // launch, a capture's start
  }
}

StreamEffect driver_effect(CUpti_CallbackId cbid, const void* p) {
  if (p == nullptr) return StreamEffect{};
  switch (cbid) {
#define ARENA_ON_A_STREAM(name)        \
  case CUPTI_DRIVER_TRACE_CBID_##name: \
    return Fx::work_on(as<name##_params>(p).hStream);
    ARENA_DRIVER_COPIES_ON_A_STREAM(ARENA_ON_A_STREAM)
    ARENA_DRIVER_LAUNCHES_ON_A_STREAM(ARENA_ON_A_STREAM)
#undef ARENA_ON_A_STREAM
#define ARENA_WITH_A_CONFIG(name)                                  \
  case CUPTI_DRIVER_TRACE_CBID_##name:                             \
    return as<name##_params>(p).config != nullptr                  \
               ? Fx::work_on(as<name##_params>(p).config->hStream) \
               : StreamEffect{};
    ARENA_DRIVER_LAUNCHES_WITH_A_CONFIG(ARENA_WITH_A_CONFIG)
#undef ARENA_WITH_A_CONFIG
#define ARENA_RECORD(name)             \
  case CUPTI_DRIVER_TRACE_CBID_##name: \
    return Fx::record(as<name##_params>(p).hEvent, as<name##_params>(p).hStream);
    ARENA_DRIVER_EVENT_RECORDS(ARENA_RECORD)
#undef ARENA_RECORD
#define ARENA_WAIT(name)               \
  case CUPTI_DRIVER_TRACE_CBID_##name: \
    return Fx::wait(as<name##_params>(p).hStream, as<name##_params>(p).hEvent);
    ARENA_DRIVER_STREAM_WAITS(ARENA_WAIT)
#undef ARENA_WAIT
#define ARENA_FORGET_EVENT(name)       \
  case CUPTI_DRIVER_TRACE_CBID_##name: \
    return Fx::forget_event(as<name##_params>(p).hEvent);
    ARENA_DRIVER_EVENT_DESTROYS(ARENA_FORGET_EVENT)
#undef ARENA_FORGET_EVENT
#define ARENA_FORGET_STREAM(name)      \
  case CUPTI_DRIVER_TRACE_CBID_##name: \
    return Fx::forget_stream(as<name##_params>(p).hStream);
    ARENA_DRIVER_STREAM_DESTROYS(ARENA_FORGET_STREAM)
#undef ARENA_FORGET_STREAM
#define ARENA_CREATED(name, field)     \
  case CUPTI_DRIVER_TRACE_CBID_##name: \
    return created(as<name##_params>(p).field);
    ARENA_DRIVER_STREAM_CREATES(ARENA_CREATED)
    ARENA_DRIVER_EVENT_CREATES(ARENA_CREATED)
#undef ARENA_CREATED
#define ARENA_CONTEXT(name) case CUPTI_DRIVER_TRACE_CBID_##name:
    ARENA_DRIVER_CONTEXTS(ARENA_CONTEXT)
#undef ARENA_CONTEXT
    return Fx::context();
    default:
      return StreamEffect{};
  }
}

}  // namespace arena::cuda
