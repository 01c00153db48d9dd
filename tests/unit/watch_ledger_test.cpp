// The stream watch's rules: what a held call enqueues off the judge's order, what the solution's
// threads enqueue between its calls, contexts of its own, driver calls nested in runtime calls,
// calls that overlap on several threads, and a watch that went blind.
#include "backends/cuda/watch_ledger.hpp"

#include <gtest/gtest.h>

namespace arena::cuda {
namespace {


int judge_storage, side_storage, other_storage, fork_storage;
const void* const judge = &judge_storage;
const void* const side = &side_storage;
const void* const other = &other_storage;
const void* const fork_event = &fork_storage;

StreamEffect work(const void* stream) {
  return StreamEffect::work_on(stream);
}
constexpr auto record = &StreamEffect::record;
constexpr auto wait = &StreamEffect::wait;

const Caller kRunner{true, false};
const Caller kThread{false, false};

// A whole call on one thread: its entry, then its exit (succeeded).
void call(WatchLedger& l, const StreamEffect& e, const char* name = "f",
          const Caller& c = kRunner) {
  const bool at_entry = l.enter(e, name, c);
  l.exit(e, c, true, at_entry);
}

// The runner's order of a held call: arm, then the solution's turn.
WatchLedger held_call() {
  WatchLedger l;
  l.arm(judge);
  l.set_phase(RunnerPhase::kSolution);
  return l;
}

TEST(WatchLedger, WorkOnTheJudgesStreamOrAForkOfItIsNotCounted) {
  WatchLedger l = held_call();
  call(l, work(judge));
  call(l, record(fork_event, judge));
  call(l, wait(side, fork_event));
  call(l, work(side));
  EXPECT_EQ(l.take().count, 0u);
}

TEST(WatchLedger, WorkOnAStreamOfItsOwnIsCountedWithItsName) {
  WatchLedger l = held_call();
  call(l, work(side), "cudaLaunchKernel_v7000");
  call(l, work(nullptr), "cudaMemcpyAsync_v3020");  // the legacy default stream
  call(l, StreamEffect{}, "cudaMemcpy_v3020");      // a stream it does not name
  WatchLedger::Count c = l.take();
  EXPECT_EQ(c.count, 3u);
  EXPECT_EQ(c.first, "cudaLaunchKernel_v7000");
  EXPECT_EQ(l.take().count, 0u);  // taken
}

TEST(WatchLedger, NothingIsJudgedOnOrderWhileDisarmed) {
  WatchLedger
      l;  // an unheld call (the first, checked one): the runner's thread in the solution's code
  l.set_phase(RunnerPhase::kSolution);
  call(l, work(side));
  EXPECT_EQ(l.take().count, 0u);
}

TEST(WatchLedger, WorkAThreadOfTheSolutionsEnqueuesBetweenCallsIsCountedUntilTaken) {
  WatchLedger l;
  l.set_phase(RunnerPhase::kRunner);  // the runner lays out the next call's inputs
  call(l, work(judge), "cuLaunchKernel",
       kThread);  // on the judge's stream too: it runs before the hold
  l.set_phase(RunnerPhase::kIdle);
  call(l, record(fork_event, judge), "cudaEventRecord_v3020", kThread);
  l.arm(judge);  // the next held call reports them
  l.set_phase(RunnerPhase::kSolution);
  call(l, work(judge), "cuLaunchKernel", kThread);  // inside the call: judged by the order
  WatchLedger::Count c = l.take();
  EXPECT_EQ(c.count, 2u);
  EXPECT_NE(c.first.find("cuLaunchKernel (from a thread of the solution's own"), std::string::npos)
      << c.first;
}

TEST(WatchLedger, TheRunnersThreadIsCountedOnlyWhileItWaitsForARequest) {
  WatchLedger l;
  l.set_phase(RunnerPhase::kRunner);
  call(l, work(judge));  // the runner's own work
  EXPECT_EQ(l.take().count, 0u);
  l.set_phase(RunnerPhase::kIdle);
  call(l, work(judge), "cuMemsetD8Async");  // a signal handler's
  WatchLedger::Count c = l.take();
  EXPECT_EQ(c.count, 1u);
  EXPECT_NE(c.first.find("signal handler"), std::string::npos) << c.first;
}

TEST(WatchLedger, AContextOfItsOwnIsCountedAtAnyTime) {
  WatchLedger l;
  l.set_phase(RunnerPhase::kSolution);
  call(l, StreamEffect::context(), "cuCtxCreate_v4");
  WatchLedger::Count c = l.take();
  EXPECT_EQ(c.count, 1u);
  EXPECT_EQ(c.first.rfind("cuCtxCreate_v4", 0), 0u);
}

TEST(WatchLedger, ARuntimeCallsOwnDriverCallIsJudgedOnceAndAnotherNestedCallOnItsOwn) {
  WatchLedger l = held_call();
  const Caller nested_same{true, true};
  // cudaMemcpyAsync on a stream of its own, and the cuMemcpyAsync it makes: one count.
  const bool outer = l.enter(work(side), "cudaMemcpyAsync_v3020", kRunner);
  call(l, work(side), "cuMemcpyAsync", nested_same);
  l.exit(work(side), kRunner, true, outer);
  EXPECT_EQ(l.take().count, 1u);
  // A driver call with another effect inside an ordered runtime call (a signal handler's, made
  // while the runtime call was in progress): judged on its own.
  const bool in_order = l.enter(record(fork_event, judge), "cudaEventRecord_v3020", kRunner);
  call(l, work(other), "cuLaunchKernel", kRunner);
  l.exit(record(fork_event, judge), kRunner, true, in_order);
  EXPECT_EQ(l.take().count, 1u);
}

TEST(WatchLedger, OverlappingRecordsOfOneEventOrderNothing) {
  WatchLedger l = held_call();
  // Two threads record the fork event at once, one on the judge's stream, one on a stream of its
  // own: which the driver did last is unknown, so the event orders nothing.
  const bool a = l.enter(record(fork_event, judge), "cudaEventRecord_v3020", kRunner);
  const bool b = l.enter(record(fork_event, other), "cudaEventRecord_v3020", kThread);
  l.exit(record(fork_event, other), kThread, true, b);
  l.exit(record(fork_event, judge), kRunner, true, a);
  call(l, wait(side, fork_event));
  call(l, work(side), "cudaLaunchKernel_v7000");
  EXPECT_EQ(l.take().count, 1u);
}

TEST(WatchLedger, AWaitDuringARecordOfItsEventOrdersNothing) {
  WatchLedger l = held_call();
  call(l, record(fork_event, judge));
  const bool rec = l.enter(record(fork_event, other), "cudaEventRecord_v3020", kThread);
  const bool w = l.enter(wait(side, fork_event), "cudaStreamWaitEvent_v3020", kRunner);
  l.exit(wait(side, fork_event), kRunner, true, w);
  l.exit(record(fork_event, other), kThread, true, rec);
  call(l, work(side), "cudaLaunchKernel_v7000");
  EXPECT_EQ(l.take().count, 1u);
}

TEST(WatchLedger, AFailedRecordOrWaitOrdersNothing) {
  WatchLedger l = held_call();
  const bool r = l.enter(record(fork_event, judge), "cudaEventRecord_v3020", kRunner);
  l.exit(record(fork_event, judge), kRunner, false, r);
  call(l, wait(side, fork_event));
  call(l, record(fork_event, judge));
  const bool w = l.enter(wait(other, fork_event), "cudaStreamWaitEvent_v3020", kRunner);
  l.exit(wait(other, fork_event), kRunner, false, w);
  call(l, work(side));
  call(l, work(other));
  EXPECT_EQ(l.take().count, 2u);
}

TEST(WatchLedger, ANewHandleAtAKnownAddressForgetsItsOrder) {
  WatchLedger l = held_call();
  call(l, record(fork_event, judge));
  call(l, wait(side, fork_event));
  // The forked stream was destroyed where the watch did not see it; a new one comes at its address.
  const void* made = side;
  call(l, StreamEffect::new_handle(&made));
  call(l, work(side));
  EXPECT_EQ(l.take().count, 1u);
}

TEST(WatchLedger, AWatchThatSawNoCallAfterTheSolutionsWentBlind) {
  WatchLedger l = held_call();
  call(l, work(judge));
  l.expect_a_call();
  EXPECT_TRUE(l.disarm());  // the stop record was not seen: CUPTI was switched off
  l.arm(judge);
  l.expect_a_call();
  call(l, record(fork_event, judge));  // the stop record
  EXPECT_FALSE(l.disarm());
  EXPECT_FALSE(l.armed());
}

}  // namespace
}  // namespace arena::cuda
