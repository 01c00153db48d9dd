#include "backends/cuda/watch_ledger.hpp"

namespace arena::cuda {

void WatchLedger::arm(const void* judge) {
  order_.begin(judge);
  armed_ = true;
  expecting_ = false;
  seen_ = 0;
}

void WatchLedger::expect_a_call() {
  expecting_ = true;
  seen_ = 0;
}

bool WatchLedger::disarm() {
  const bool blind = armed_ && expecting_ && seen_ == 0;
  armed_ = false;
  expecting_ = false;
  return blind;
}

bool WatchLedger::between_calls(const Caller& caller) const {
  return caller.runner_thread ? phase_ == RunnerPhase::kIdle : phase_ != RunnerPhase::kSolution;
}

void WatchLedger::count(const char* function, const char* why) {
  ++counted_.count;
  if (counted_.first.empty())
    counted_.first = std::string(function != nullptr ? function : "?") + why;
}

bool WatchLedger::enter(const StreamEffect& e, const char* function, const Caller& caller) {
  if (armed_) ++seen_;
  if (caller.inside_same) return false;
  using Kind = StreamEffect::Kind;
  switch (e.kind) {
    case Kind::kContext:
      count(function,
            " (a CUDA context of the solution's own, which the hold does not hold, or a reset)");
      return false;
    case Kind::kForgetEvent:
      order_.forget_event(e.event);
      return false;
    case Kind::kForgetStream:
      order_.forget_stream(e.stream);
      return false;
    case Kind::kCreated:
      return false;
    case Kind::kWork:
    case Kind::kRecord:
    case Kind::kWait:
      break;
  }
  const bool outside = between_calls(caller);
  if (outside)
    count(function, caller.runner_thread
                        ? " (on the runner's thread between calls: a signal handler's)"
                        : " (from a thread of the solution's own, between its calls)");
  if (e.kind == Kind::kRecord) {
    order_.record_begin(e.event);
    return false;
  }
  if (e.kind == Kind::kWait) return order_.wait_begin(e.event);
  if (!outside && armed_ && !(e.known && order_.ordered(e.stream))) count(function);
  return false;
}

void WatchLedger::exit(const StreamEffect& e, const Caller& caller, bool succeeded, bool at_entry) {
  if (armed_) ++seen_;
  if (caller.inside_same) return;
  using Kind = StreamEffect::Kind;
  switch (e.kind) {
    case Kind::kRecord:
      order_.record_end(e.event, e.stream, succeeded);
      return;
    case Kind::kWait:
      order_.wait_end(e.stream, e.event, succeeded, at_entry);
      return;
    case Kind::kCreated:
      // A new handle at an address the watch knew: a destroy it did not see came first.
      if (succeeded && e.created != nullptr && *e.created != nullptr) {
        order_.forget_event(*e.created);
        order_.forget_stream(*e.created);
      }
      return;
    default:
      return;
  }
}

WatchLedger::Count WatchLedger::take() {
  Count c = std::move(counted_);
  counted_ = Count{};
  return c;
}

}  // namespace arena::cuda
