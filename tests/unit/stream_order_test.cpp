// What a held CUDA call enqueues is ordered after the window's start only on the judge's stream
// and on streams forked from it by events recorded during the call.
#include "backends/cuda/stream_order.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace arena::cuda {
namespace {

// Stand-in handles: only their addresses matter.
int judge_stream, side_stream, other_stream, fork_event, join_event, old_event;

TEST(StreamOrder, OnlyTheJudgesStreamIsOrderedAtFirst) {
  StreamOrder o;
  o.begin(&judge_stream);
  EXPECT_TRUE(o.ordered(&judge_stream));
  EXPECT_FALSE(o.ordered(&side_stream));
  EXPECT_FALSE(o.ordered(nullptr));  // the legacy default stream
}

TEST(StreamOrder, AStreamForkedByAnEventFromTheJudgesStreamIsOrderedAndSoAreItsForks) {
  StreamOrder o;
  o.begin(&judge_stream);
  o.record(&fork_event, &judge_stream);
  o.wait(&side_stream, &fork_event);
  EXPECT_TRUE(o.ordered(&side_stream));
  o.record(&join_event, &side_stream);  // recorded on an ordered stream: ordered too
  o.wait(&other_stream, &join_event);
  EXPECT_TRUE(o.ordered(&other_stream));
}

TEST(StreamOrder, WaitingOnAnEventFromAnUnorderedStreamOrdersNothing) {
  StreamOrder o;
  o.begin(&judge_stream);
  o.record(&old_event, &other_stream);
  o.wait(&side_stream, &old_event);
  EXPECT_FALSE(o.ordered(&side_stream));
  o.wait(&side_stream, &join_event);  // never recorded in this call
  EXPECT_FALSE(o.ordered(&side_stream));
}

TEST(StreamOrder, AnEventReRecordedOnAnUnorderedStreamNoLongerOrders) {
  StreamOrder o;
  o.begin(&judge_stream);
  o.record(&fork_event, &judge_stream);
  o.record(&fork_event, &other_stream);
  o.wait(&side_stream, &fork_event);
  EXPECT_FALSE(o.ordered(&side_stream));
}

TEST(StreamOrder, EachCallStartsAfresh) {
  StreamOrder o;
  o.begin(&judge_stream);
  o.record(&fork_event, &judge_stream);
  o.wait(&side_stream, &fork_event);
  o.begin(&judge_stream);  // the next call: last call's fork is long done
  EXPECT_FALSE(o.ordered(&side_stream));
  o.wait(&side_stream, &fork_event);  // an event recorded in an earlier call
  EXPECT_FALSE(o.ordered(&side_stream));
}

TEST(StreamOrder, TheDefaultStreamsAreNeverOrdered) {
  // 0, cudaStreamLegacy and cudaStreamPerThread name another stream by entry point and thread.
  for (std::uintptr_t handle : {0u, 1u, 2u}) {
    StreamOrder o;
    o.begin(&judge_stream);
    o.record(&fork_event, &judge_stream);
    const void* stream = reinterpret_cast<const void*>(handle);
    o.wait(stream, &fork_event);
    EXPECT_FALSE(o.ordered(stream)) << handle;
  }
}

TEST(StreamOrder, ADestroyedHandleForgetsItsOrder) {
  StreamOrder o;
  o.begin(&judge_stream);
  o.record(&fork_event, &judge_stream);
  o.forget_event(&fork_event);  // a new event may come at the same address
  o.wait(&side_stream, &fork_event);
  EXPECT_FALSE(o.ordered(&side_stream));
  o.record(&join_event, &judge_stream);
  o.wait(&other_stream, &join_event);
  o.forget_stream(&other_stream);
  EXPECT_FALSE(o.ordered(&other_stream));
}

}  // namespace
}  // namespace arena::cuda
