#include "backends/cuda/copy_watch.hpp"

#include <cupti.h>  // with the parameter structs of the runtime and driver entry points

#include <atomic>
#include <optional>

#include "backends/cuda/copy_watch_cbids.hpp"

namespace arena::cuda {
namespace {

// One watch per process (CUPTI allows one subscriber): its state, shared with the callback,
// which runs on whichever thread made the call.
std::atomic<bool> g_armed{false};
std::atomic<void*> g_allowed{nullptr};
std::atomic<uint64_t> g_count{0};
std::atomic<const char*> g_first{nullptr};
// Inside a runtime copy or memset on this thread: the driver calls it makes are its own.
thread_local int t_runtime_depth = 0;

// The stream a runtime copy or memset was enqueued on; nullopt where it takes none (synchronous:
// the legacy default stream).
std::optional<void*> runtime_stream(CUpti_CallbackId cbid, const void* params) {
  switch (cbid) {
#define ARENA_CASE(name)                \
  case CUPTI_RUNTIME_TRACE_CBID_##name: \
    return static_cast<void*>(static_cast<const name##_params*>(params)->stream);
    ARENA_RUNTIME_COPIES_ON_A_STREAM(ARENA_CASE)
#undef ARENA_CASE
    default:
      return std::nullopt;
  }
}

std::optional<void*> driver_stream(CUpti_CallbackId cbid, const void* params) {
  switch (cbid) {
#define ARENA_CASE(name)               \
  case CUPTI_DRIVER_TRACE_CBID_##name: \
    return static_cast<void*>(static_cast<const name##_params*>(params)->hStream);
    ARENA_DRIVER_COPIES_ON_A_STREAM(ARENA_CASE)
#undef ARENA_CASE
    default:
      return std::nullopt;
  }
}

void count(const std::optional<void*>& stream, const char* function) {
  if (stream && *stream == g_allowed.load(std::memory_order_relaxed)) return;
  g_count.fetch_add(1, std::memory_order_relaxed);
  const char* none = nullptr;
  g_first.compare_exchange_strong(none, function);
}

void CUPTIAPI on_api(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  const auto* cb = static_cast<const CUpti_CallbackData*>(data);
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    if (cb->callbackSite == CUPTI_API_EXIT) {
      --t_runtime_depth;
      return;
    }
    ++t_runtime_depth;
    if (g_armed.load(std::memory_order_acquire))
      count(runtime_stream(cbid, cb->functionParams), cb->functionName);
  } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    // A driver copy made by a runtime copy was judged as that; the rest came through
    // cudaGetDriverEntryPoint.
    if (cb->callbackSite != CUPTI_API_ENTER || t_runtime_depth > 0) return;
    if (g_armed.load(std::memory_order_acquire))
      count(driver_stream(cbid, cb->functionParams), cb->functionName);
  }
}

std::string describe(CUptiResult r) {
  const char* text = nullptr;
  cuptiGetResultString(r, &text);
  return text != nullptr ? text : "CUPTI error " + std::to_string(static_cast<int>(r));
}

}  // namespace

std::string CopyWatch::start() {
  CUpti_SubscriberHandle subscriber = nullptr;
  if (CUptiResult r =
          cuptiSubscribe(&subscriber, reinterpret_cast<CUpti_CallbackFunc>(on_api), nullptr);
      r != CUPTI_SUCCESS)
    return "cuptiSubscribe: " + describe(r);
  CUptiResult r = CUPTI_SUCCESS;
  auto enable = [&](CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
    if (r == CUPTI_SUCCESS) r = cuptiEnableCallback(1, subscriber, domain, cbid);
  };
#define ARENA_RUNTIME(name) enable(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_##name);
#define ARENA_DRIVER(name) enable(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_##name);
  ARENA_RUNTIME_COPIES_ON_A_STREAM(ARENA_RUNTIME)
  ARENA_RUNTIME_COPIES_OTHER(ARENA_RUNTIME)
  ARENA_DRIVER_COPIES_ON_A_STREAM(ARENA_DRIVER)
  ARENA_DRIVER_COPIES_OTHER(ARENA_DRIVER)
#undef ARENA_RUNTIME
#undef ARENA_DRIVER
  if (r != CUPTI_SUCCESS) {
    cuptiUnsubscribe(subscriber);
    return "cuptiEnableCallback: " + describe(r);
  }
  on_ = true;
  return "";
}

void CopyWatch::arm(cudaStream_t allowed) {
  if (!on_) return;
  g_allowed.store(static_cast<void*>(allowed), std::memory_order_relaxed);
  g_count.store(0, std::memory_order_relaxed);
  g_first.store(nullptr, std::memory_order_relaxed);
  g_armed.store(true, std::memory_order_release);
}

CopyWatch::Seen CopyWatch::disarm() {
  g_armed.store(false, std::memory_order_release);
  Seen seen;
  seen.count = g_count.load(std::memory_order_relaxed);
  if (const char* first = g_first.load(std::memory_order_relaxed); first != nullptr)
    seen.first = first;
  return seen;
}

}  // namespace arena::cuda
