#include "backends/cuda/stream_watch.hpp"

#include <cupti.h>  // with the parameter structs of the runtime and driver entry points

#include <atomic>
#include <mutex>

#include "backends/cuda/stream_order.hpp"
#include "backends/cuda/stream_watch_cbids.hpp"

namespace arena::cuda {
namespace {

// One watch per process (CUPTI allows one subscriber): its state, shared with the callback,
// which runs on whichever thread made the call.
std::atomic<bool> g_armed{false};
std::mutex g_mutex;  // guards what follows
StreamOrder g_order;
uint64_t g_count = 0;
const char* g_first = nullptr;
uint64_t g_seen = 0;  // watched calls seen since arm() or expect_a_call(): none means CUPTI went blind
// Inside a watched runtime call on this thread: the driver calls it makes are its own.
thread_local int t_runtime_depth = 0;

// What a watched entry point does to the order: enqueue work on a stream (nullptr with
// `known` false: a stream it does not name, never ordered; a capture's start), record an event,
// wait on one, or destroy a handle.
struct Effect {
  enum class Kind { kWork, kRecord, kWait, kForgetEvent, kForgetStream } kind = Kind::kWork;
  const void* stream = nullptr;
  bool known = false;
  const void* event = nullptr;
};

Effect work_on(const void* stream) { return {Effect::Kind::kWork, stream, true, nullptr}; }
Effect record(const void* event, const void* stream) { return {Effect::Kind::kRecord, stream, true, event}; }
Effect wait(const void* stream, const void* event) { return {Effect::Kind::kWait, stream, true, event}; }
Effect forget_event(const void* event) { return {Effect::Kind::kForgetEvent, nullptr, true, event}; }
Effect forget_stream(const void* stream) { return {Effect::Kind::kForgetStream, stream, true, nullptr}; }

template <typename Params>
const Params& as(const void* params) {
  return *static_cast<const Params*>(params);
}

Effect runtime_effect(CUpti_CallbackId cbid, const void* p) {
  switch (cbid) {
#define ARENA_ON_A_STREAM(name) \
  case CUPTI_RUNTIME_TRACE_CBID_##name: \
    return work_on(as<name##_params>(p).stream);
    ARENA_RUNTIME_COPIES_ON_A_STREAM(ARENA_ON_A_STREAM)
    ARENA_RUNTIME_LAUNCHES_ON_A_STREAM(ARENA_ON_A_STREAM)
#undef ARENA_ON_A_STREAM
#define ARENA_WITH_A_CONFIG(name) \
  case CUPTI_RUNTIME_TRACE_CBID_##name: \
    return as<name##_params>(p).config != nullptr ? work_on(as<name##_params>(p).config->stream) : Effect{};
    ARENA_RUNTIME_LAUNCHES_WITH_A_CONFIG(ARENA_WITH_A_CONFIG)
#undef ARENA_WITH_A_CONFIG
#define ARENA_RECORD(name) \
  case CUPTI_RUNTIME_TRACE_CBID_##name: \
    return record(as<name##_params>(p).event, as<name##_params>(p).stream);
    ARENA_RUNTIME_EVENT_RECORDS(ARENA_RECORD)
#undef ARENA_RECORD
#define ARENA_WAIT(name) \
  case CUPTI_RUNTIME_TRACE_CBID_##name: \
    return wait(as<name##_params>(p).stream, as<name##_params>(p).event);
    ARENA_RUNTIME_STREAM_WAITS(ARENA_WAIT)
#undef ARENA_WAIT
#define ARENA_FORGET_EVENT(name) \
  case CUPTI_RUNTIME_TRACE_CBID_##name: \
    return forget_event(as<name##_params>(p).event);
    ARENA_RUNTIME_EVENT_DESTROYS(ARENA_FORGET_EVENT)
#undef ARENA_FORGET_EVENT
#define ARENA_FORGET_STREAM(name) \
  case CUPTI_RUNTIME_TRACE_CBID_##name: \
    return forget_stream(as<name##_params>(p).stream);
    ARENA_RUNTIME_STREAM_DESTROYS(ARENA_FORGET_STREAM)
#undef ARENA_FORGET_STREAM
    default:
      return Effect{};  // a synchronous copy or memset, a deprecated launch, a capture's start
  }
}

Effect driver_effect(CUpti_CallbackId cbid, const void* p) {
  switch (cbid) {
#define ARENA_ON_A_STREAM(name) \
  case CUPTI_DRIVER_TRACE_CBID_##name: \
    return work_on(as<name##_params>(p).hStream);
    ARENA_DRIVER_COPIES_ON_A_STREAM(ARENA_ON_A_STREAM)
    ARENA_DRIVER_LAUNCHES_ON_A_STREAM(ARENA_ON_A_STREAM)
#undef ARENA_ON_A_STREAM
#define ARENA_WITH_A_CONFIG(name) \
  case CUPTI_DRIVER_TRACE_CBID_##name: \
    return as<name##_params>(p).config != nullptr ? work_on(as<name##_params>(p).config->hStream) : Effect{};
    ARENA_DRIVER_LAUNCHES_WITH_A_CONFIG(ARENA_WITH_A_CONFIG)
#undef ARENA_WITH_A_CONFIG
#define ARENA_RECORD(name) \
  case CUPTI_DRIVER_TRACE_CBID_##name: \
    return record(as<name##_params>(p).hEvent, as<name##_params>(p).hStream);
    ARENA_DRIVER_EVENT_RECORDS(ARENA_RECORD)
#undef ARENA_RECORD
#define ARENA_WAIT(name) \
  case CUPTI_DRIVER_TRACE_CBID_##name: \
    return wait(as<name##_params>(p).hStream, as<name##_params>(p).hEvent);
    ARENA_DRIVER_STREAM_WAITS(ARENA_WAIT)
#undef ARENA_WAIT
#define ARENA_FORGET_EVENT(name) \
  case CUPTI_DRIVER_TRACE_CBID_##name: \
    return forget_event(as<name##_params>(p).hEvent);
    ARENA_DRIVER_EVENT_DESTROYS(ARENA_FORGET_EVENT)
#undef ARENA_FORGET_EVENT
#define ARENA_FORGET_STREAM(name) \
  case CUPTI_DRIVER_TRACE_CBID_##name: \
    return forget_stream(as<name##_params>(p).hStream);
    ARENA_DRIVER_STREAM_DESTROYS(ARENA_FORGET_STREAM)
#undef ARENA_FORGET_STREAM
    default:
      return Effect{};
  }
}

void count(const char* function) {
  ++g_count;
  if (g_first == nullptr) g_first = function;
}

// At a call's entry: work is judged, handles about to be destroyed are forgotten. At its exit,
// and only where it succeeded: records and waits (a failed wait orders nothing).
void apply(const Effect& e, const char* function, bool at_exit, bool succeeded) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_armed.load(std::memory_order_acquire)) return;  // disarmed since the check outside
  ++g_seen;
  try {
    switch (e.kind) {
      case Effect::Kind::kRecord:
        if (at_exit && succeeded) g_order.record(e.event, e.stream);
        return;
      case Effect::Kind::kWait:
        if (at_exit && succeeded) g_order.wait(e.stream, e.event);
        return;
      case Effect::Kind::kForgetEvent:
        if (!at_exit) g_order.forget_event(e.event);
        return;
      case Effect::Kind::kForgetStream:
        if (!at_exit) g_order.forget_stream(e.stream);
        return;
      case Effect::Kind::kWork:
        if (!at_exit && !(e.known && g_order.ordered(e.stream))) count(function);
        return;
    }
  } catch (...) {
    count(function);  // no room to keep the order (the address space is limited): counted
  }
}

bool runtime_ok(const CUpti_CallbackData* cb) {
  return cb->functionReturnValue != nullptr && *static_cast<const cudaError_t*>(cb->functionReturnValue) == cudaSuccess;
}

bool driver_ok(const CUpti_CallbackData* cb) {
  return cb->functionReturnValue != nullptr && *static_cast<const CUresult*>(cb->functionReturnValue) == CUDA_SUCCESS;
}

void CUPTIAPI on_api(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) noexcept {
  const auto* cb = static_cast<const CUpti_CallbackData*>(data);
  const bool at_exit = cb->callbackSite == CUPTI_API_EXIT;
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    t_runtime_depth += at_exit ? -1 : 1;
    if (g_armed.load(std::memory_order_acquire))
      apply(runtime_effect(cbid, cb->functionParams), cb->functionName, at_exit, at_exit && runtime_ok(cb));
  } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    // A driver call made by a watched runtime call was judged as that; the rest came through
    // cudaGetDriverEntryPoint.
    if (t_runtime_depth > 0) return;
    if (g_armed.load(std::memory_order_acquire))
      apply(driver_effect(cbid, cb->functionParams), cb->functionName, at_exit, at_exit && driver_ok(cb));
  }
}

std::string describe(CUptiResult r) {
  const char* text = nullptr;
  cuptiGetResultString(r, &text);
  return text != nullptr ? text : "CUPTI error " + std::to_string(static_cast<int>(r));
}

}  // namespace

std::string StreamWatch::start() {
  CUpti_SubscriberHandle subscriber = nullptr;
  if (CUptiResult r = cuptiSubscribe(&subscriber, reinterpret_cast<CUpti_CallbackFunc>(on_api), nullptr);
      r != CUPTI_SUCCESS)
    return "cuptiSubscribe: " + describe(r);
  // An id this CUPTI refuses (a deprecated entry point it no longer reports) is left out; the
  // watch is off only when none could be enabled.
  int enabled = 0;
  CUptiResult r = CUPTI_SUCCESS;
  auto enable = [&](CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
    if (CUptiResult e = cuptiEnableCallback(1, subscriber, domain, cbid); e == CUPTI_SUCCESS) {
      ++enabled;
    } else {
      r = e;
    }
  };
#define ARENA_RUNTIME(name) enable(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_##name);
#define ARENA_DRIVER(name) enable(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_##name);
  ARENA_RUNTIME_COPIES_ON_A_STREAM(ARENA_RUNTIME)
  ARENA_RUNTIME_COPIES_OTHER(ARENA_RUNTIME)
  ARENA_RUNTIME_LAUNCHES_ON_A_STREAM(ARENA_RUNTIME)
  ARENA_RUNTIME_LAUNCHES_WITH_A_CONFIG(ARENA_RUNTIME)
  ARENA_RUNTIME_LAUNCHES_OTHER(ARENA_RUNTIME)
  ARENA_RUNTIME_EVENT_RECORDS(ARENA_RUNTIME)
  ARENA_RUNTIME_STREAM_WAITS(ARENA_RUNTIME)
  ARENA_RUNTIME_EVENT_DESTROYS(ARENA_RUNTIME)
  ARENA_RUNTIME_STREAM_DESTROYS(ARENA_RUNTIME)
  ARENA_RUNTIME_CAPTURES(ARENA_RUNTIME)
  ARENA_DRIVER_COPIES_ON_A_STREAM(ARENA_DRIVER)
  ARENA_DRIVER_COPIES_OTHER(ARENA_DRIVER)
  ARENA_DRIVER_LAUNCHES_ON_A_STREAM(ARENA_DRIVER)
  ARENA_DRIVER_LAUNCHES_WITH_A_CONFIG(ARENA_DRIVER)
  ARENA_DRIVER_LAUNCHES_OTHER(ARENA_DRIVER)
  ARENA_DRIVER_EVENT_RECORDS(ARENA_DRIVER)
  ARENA_DRIVER_STREAM_WAITS(ARENA_DRIVER)
  ARENA_DRIVER_EVENT_DESTROYS(ARENA_DRIVER)
  ARENA_DRIVER_STREAM_DESTROYS(ARENA_DRIVER)
  ARENA_DRIVER_CAPTURES(ARENA_DRIVER)
#undef ARENA_RUNTIME
#undef ARENA_DRIVER
  if (enabled == 0) {
    cuptiUnsubscribe(subscriber);
    return "cuptiEnableCallback: " + describe(r);
  }
  on_ = true;
  return "";
}

void StreamWatch::arm(cudaStream_t judge) {
  if (!on_) return;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_order.begin(static_cast<const void*>(judge));
    g_count = 0;
    g_first = nullptr;
    g_seen = 0;
  }
  g_armed.store(true, std::memory_order_release);
}

void StreamWatch::expect_a_call() {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_seen = 0;
}

StreamWatch::Seen StreamWatch::disarm() {
  g_armed.store(false, std::memory_order_release);
  std::lock_guard<std::mutex> lock(g_mutex);
  Seen seen;
  seen.count = g_count;
  if (g_first != nullptr) seen.first = g_first;
  seen.blind = on_ && g_seen == 0;
  return seen;
}

}  // namespace arena::cuda
