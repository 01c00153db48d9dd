#include "backends/cuda/stream_watch.hpp"

#include <cupti.h>
#include <signal.h>  // NOLINT(modernize-deprecated-headers): sigaction, sigset_t are POSIX

#include <mutex>

#include "backends/cuda/stream_effect.hpp"
#include "backends/cuda/stream_watch_cbids.hpp"

namespace arena::cuda {
namespace {

// One watch per process (CUPTI allows one subscriber), shared with the callback, which runs on
// whichever thread made the call.
// Never destroyed: a thread of the solution's may still make CUDA calls while the process exits.
std::mutex& g_mutex = *new std::mutex;  // guards the ledger
WatchLedger& g_ledger = *new WatchLedger;
thread_local bool t_runner_thread = false;
// The watched runtime call this thread is in (depth > 0) and its effect: a driver call it makes
// with the same effect is its own. One with another effect (from a signal handler, say) is
// judged on its own.
thread_local int t_runtime_depth = 0;
thread_local StreamEffect t_runtime_effect;
// A wait's order at its entry, for its exit: the runtime's and a driver call's.
thread_local bool t_runtime_at_entry = false;
thread_local bool t_driver_at_entry = false;

// The runner's thread's signal mask as it came, and with every signal that does not report a
// fault blocked: outside the solution's code a signal handler of the solution's cannot run on
// the runner's thread (where its CUDA calls would pass for the runner's own); one sent
// meanwhile waits for the next call.
sigset_t g_mask_as_came;
sigset_t g_mask_blocked;

bool succeeded(bool runtime, const CUpti_CallbackData* cb) {
  if (cb->functionReturnValue == nullptr) return false;
  return runtime ? *static_cast<const cudaError_t*>(cb->functionReturnValue) == cudaSuccess
                 : *static_cast<const CUresult*>(cb->functionReturnValue) == CUDA_SUCCESS;
}

void CUPTIAPI on_api(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                     const void* data) noexcept {
  const bool runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API;
  if (!runtime && domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
  const auto* cb = static_cast<const CUpti_CallbackData*>(data);
  const bool at_exit = cb->callbackSite == CUPTI_API_EXIT;
  const StreamEffect e =
      runtime ? runtime_effect(cbid, cb->functionParams) : driver_effect(cbid, cb->functionParams);
  Caller caller;
  caller.runner_thread = t_runner_thread;
  if (runtime && at_exit && t_runtime_depth > 0) --t_runtime_depth;
  caller.inside_same = t_runtime_depth > 0 && e == t_runtime_effect;
  if (runtime && !at_exit && t_runtime_depth++ == 0) t_runtime_effect = e;
  bool& at_entry = runtime ? t_runtime_at_entry : t_driver_at_entry;
  std::lock_guard<std::mutex> lock(g_mutex);
  try {
    if (at_exit) {
      g_ledger.exit(e, caller, succeeded(runtime, cb), at_entry);
    } else {
      at_entry = g_ledger.enter(e, cb->functionName, caller);
    }
  } catch (...) {
    g_ledger.count(cb->functionName, " (the watch ran out of memory keeping the order)");
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
  if (CUptiResult r =
          cuptiSubscribe(&subscriber, reinterpret_cast<CUpti_CallbackFunc>(on_api), nullptr);
      r != CUPTI_SUCCESS)
    return "cuptiSubscribe: " + describe(r);
  // An id this CUPTI refuses (a deprecated entry point it no longer reports) is left out of the
  // work lists; the records, waits and destroys the order rests on must all be there.
  int enabled = 0;
  std::string missing;
  auto enable = [&](CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const char* name,
                    bool needed) {
    if (CUptiResult e = cuptiEnableCallback(1, subscriber, domain, cbid); e == CUPTI_SUCCESS) {
      ++enabled;
    } else if (needed && missing.empty()) {
      missing = std::string(name) + ": " + describe(e);
    }
  };
#define ARENA_RUNTIME(name) \
  enable(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_##name, #name, false);
#define ARENA_DRIVER(name) \
  enable(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_##name, #name, false);
#define ARENA_RUNTIME_NEEDED(name) \
  enable(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_##name, #name, true);
#define ARENA_DRIVER_NEEDED(name) \
  enable(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_##name, #name, true);
#define ARENA_RUNTIME_CREATE(name, field) ARENA_RUNTIME(name)
#define ARENA_DRIVER_CREATE(name, field) ARENA_DRIVER(name)
  ARENA_RUNTIME_COPIES_ON_A_STREAM(ARENA_RUNTIME)
  ARENA_RUNTIME_COPIES_OTHER(ARENA_RUNTIME)
  ARENA_RUNTIME_LAUNCHES_ON_A_STREAM(ARENA_RUNTIME)
  ARENA_RUNTIME_LAUNCHES_WITH_A_CONFIG(ARENA_RUNTIME)
  ARENA_RUNTIME_LAUNCHES_OTHER(ARENA_RUNTIME)
  ARENA_RUNTIME_STREAM_OPS(ARENA_RUNTIME)
  ARENA_RUNTIME_CAPTURES(ARENA_RUNTIME)
  ARENA_RUNTIME_CONTEXTS(ARENA_RUNTIME)
  ARENA_RUNTIME_EVENT_RECORDS(ARENA_RUNTIME_NEEDED)
  ARENA_RUNTIME_STREAM_WAITS(ARENA_RUNTIME_NEEDED)
  ARENA_RUNTIME_EVENT_DESTROYS(ARENA_RUNTIME_NEEDED)
  ARENA_RUNTIME_STREAM_DESTROYS(ARENA_RUNTIME_NEEDED)
  ARENA_RUNTIME_STREAM_CREATES(ARENA_RUNTIME_CREATE)
  ARENA_RUNTIME_EVENT_CREATES(ARENA_RUNTIME_CREATE)
  ARENA_DRIVER_COPIES_ON_A_STREAM(ARENA_DRIVER)
  ARENA_DRIVER_COPIES_OTHER(ARENA_DRIVER)
  ARENA_DRIVER_LAUNCHES_ON_A_STREAM(ARENA_DRIVER)
  ARENA_DRIVER_LAUNCHES_WITH_A_CONFIG(ARENA_DRIVER)
  ARENA_DRIVER_LAUNCHES_OTHER(ARENA_DRIVER)
  ARENA_DRIVER_STREAM_OPS(ARENA_DRIVER)
  ARENA_DRIVER_CAPTURES(ARENA_DRIVER)
  ARENA_DRIVER_CONTEXTS(ARENA_DRIVER)
  ARENA_DRIVER_EVENT_RECORDS(ARENA_DRIVER_NEEDED)
  ARENA_DRIVER_STREAM_WAITS(ARENA_DRIVER_NEEDED)
  ARENA_DRIVER_EVENT_DESTROYS(ARENA_DRIVER_NEEDED)
  ARENA_DRIVER_STREAM_DESTROYS(ARENA_DRIVER_NEEDED)
  ARENA_DRIVER_STREAM_CREATES(ARENA_DRIVER_CREATE)
  ARENA_DRIVER_EVENT_CREATES(ARENA_DRIVER_CREATE)
#undef ARENA_RUNTIME
#undef ARENA_DRIVER
#undef ARENA_RUNTIME_NEEDED
#undef ARENA_DRIVER_NEEDED
#undef ARENA_RUNTIME_CREATE
#undef ARENA_DRIVER_CREATE
  if (enabled == 0 || !missing.empty()) {
    cuptiUnsubscribe(subscriber);
    return "cuptiEnableCallback: " +
           (missing.empty() ? std::string("no id could be enabled") : missing);
  }
  t_runner_thread = true;
  pthread_sigmask(SIG_SETMASK, nullptr, &g_mask_as_came);
  sigfillset(&g_mask_blocked);
  for (int fault : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT, SIGPIPE}) sigdelset(&g_mask_blocked, fault);
  on_ = true;
  return "";
}

void StreamWatch::set_phase(RunnerPhase phase) {
  if (!on_) return;
  t_runtime_depth = 0;  // the runner is in no CUDA call: a depth left over (a longjmp) is gone
  pthread_sigmask(SIG_SETMASK, phase == RunnerPhase::kSolution ? &g_mask_as_came : &g_mask_blocked, nullptr);
  std::lock_guard<std::mutex> lock(g_mutex);
  g_ledger.set_phase(phase);
}

void StreamWatch::arm(cudaStream_t judge) {
  if (!on_) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  g_ledger.arm(static_cast<const void*>(judge));
}

void StreamWatch::expect_a_call() {
  if (!on_) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  g_ledger.expect_a_call();
}

bool StreamWatch::disarm() {
  if (!on_) return false;
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_ledger.disarm();
}

WatchLedger::Count StreamWatch::take() {
  if (!on_) return {};
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_ledger.take();
}

}  // namespace arena::cuda
