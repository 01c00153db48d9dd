// The stream watch's rules (stream_watch.hpp), apart from CUPTI: StreamWatch feeds it every
// watched call's entry and exit, with its effect (stream_effect.hpp) and who made it, under one
// lock; it keeps the order (stream_order.hpp) and counts what may run outside the timed window:
//   - while armed (a held call, or a --graph capture), work enqueued where it is not ordered after
//     the window's start;
//   - at any time, work, records and waits enqueued from outside the solution's calls: by a thread
//     of the solution's own while the runner's thread is not in a call (work it enqueues between
//     calls, on the judge's stream too, runs before the hold), or on the runner's thread while the
//     runner waits for its next request (a signal handler);
//   - at any time, a context of the solution's own (which the hold does not hold) or a reset.
// The count stays until take(): what happened between calls is reported with the next watched one.
#pragma once

#include <cstdint>
#include <string>

#include "backends/cuda/stream_effect.hpp"
#include "backends/cuda/stream_order.hpp"

namespace arena::cuda {

// What the runner's thread is doing: waiting for a request, serving one, or in the solution's
// code (a call, a --graph capture).
enum class RunnerPhase { kIdle, kRunner, kSolution };

struct Caller {
  bool runner_thread = true;  // else a thread the solution started
  // Made inside a watched runtime call on the same thread with the same effect: that call's own
  // driver call, judged as the runtime call was.
  bool inside_same = false;
};

class WatchLedger {
 public:
  void set_phase(RunnerPhase phase) { phase_ = phase; }
  // From now until disarm(), work not ordered after `judge`'s next operation is counted.
  void arm(const void* judge);
  bool armed() const { return armed_; }
  // From here the watch must see another call before disarm(), else it went blind.
  void expect_a_call();
  // Ends the order rule; true where expect_a_call() came and no call after it was seen.
  bool disarm();

  // A call's entry; what it returns goes back to exit() (a wait's order at its entry).
  bool enter(const StreamEffect& e, const char* function, const Caller& caller);
  void exit(const StreamEffect& e, const Caller& caller, bool succeeded, bool at_entry);
  // Counts what could not be judged (the order could not be kept: out of memory).
  void count(const char* function, const char* why = "");

  struct Count {
    uint64_t count = 0;
    std::string first;  // the first one's function name, as CUPTI names it, and why
  };
  // What was counted since the last take().
  Count take();

 private:
  bool between_calls(const Caller& caller) const;

  RunnerPhase phase_ = RunnerPhase::kRunner;
  bool armed_ = false;
  bool expecting_ = false;
  uint64_t seen_ = 0;  // calls seen since arm() or expect_a_call()
  StreamOrder order_;
  Count counted_;
};

}  // namespace arena::cuda
