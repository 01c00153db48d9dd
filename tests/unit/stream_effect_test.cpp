// What the stream watch reads from a watched entry point's CUPTI parameters (hand-filled here, as
// CUPTI fills them), and whether its lists name every entry point that enqueues work.
#include "backends/cuda/stream_effect.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "backends/cuda/stream_watch_cbids.hpp"

namespace arena::cuda {
namespace {

using Kind = StreamEffect::Kind;

// Stand-in handles: only their addresses matter.
int side_storage, event_storage;
const auto side = reinterpret_cast<cudaStream_t>(&side_storage);
const auto event = reinterpret_cast<cudaEvent_t>(&event_storage);

TEST(StreamEffect, ALaunchIsWorkOnTheStreamItNames) {
  cudaLaunchKernel_v7000_params runtime{};
  runtime.stream = side;
  StreamEffect e = runtime_effect(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &runtime);
  EXPECT_EQ(e.kind, Kind::kWork);
  EXPECT_TRUE(e.known);
  EXPECT_EQ(e.stream, static_cast<const void*>(side));

  cuLaunchKernel_params driver{};
  driver.hStream = reinterpret_cast<CUstream>(side);
  EXPECT_EQ(driver_effect(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &driver), e);
  cuMemcpyDtoHAsync_v2_params copy{};
  copy.hStream = reinterpret_cast<CUstream>(side);
  EXPECT_EQ(driver_effect(CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2, &copy), e);
}

TEST(StreamEffect, AConfiguredLaunchNamesItsStreamInTheConfig) {
  cudaLaunchConfig_t config{};
  config.stream = side;
  cudaLaunchKernelExC_v11060_params runtime{};
  runtime.config = &config;
  EXPECT_EQ(runtime_effect(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060, &runtime).stream,
            static_cast<const void*>(side));
  runtime.config = nullptr;  // no config: a stream it does not name, never ordered
  StreamEffect none = runtime_effect(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060, &runtime);
  EXPECT_EQ(none.kind, Kind::kWork);
  EXPECT_FALSE(none.known);

  CUlaunchConfig driver_config{};
  driver_config.hStream = reinterpret_cast<CUstream>(side);
  cuLaunchKernelEx_params driver{};
  driver.config = &driver_config;
  EXPECT_EQ(driver_effect(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, &driver).stream,
            static_cast<const void*>(side));
}

TEST(StreamEffect, RecordsAndWaitsNameTheirEventAndStream) {
  cudaEventRecord_v3020_params rec{};
  rec.event = event;
  rec.stream = side;
  StreamEffect r = runtime_effect(CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020, &rec);
  EXPECT_EQ(r.kind, Kind::kRecord);
  EXPECT_EQ(r.event, static_cast<const void*>(event));
  EXPECT_EQ(r.stream, static_cast<const void*>(side));
  cuEventRecordWithFlags_params drec{};
  drec.hEvent = reinterpret_cast<CUevent>(event);
  drec.hStream = reinterpret_cast<CUstream>(side);
  EXPECT_EQ(driver_effect(CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags, &drec), r);

  cudaStreamWaitEvent_v3020_params wait{};
  wait.stream = side;
  wait.event = event;
  StreamEffect w = runtime_effect(CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_v3020, &wait);
  EXPECT_EQ(w.kind, Kind::kWait);
  EXPECT_EQ(w.event, static_cast<const void*>(event));
  EXPECT_EQ(w.stream, static_cast<const void*>(side));
}

TEST(StreamEffect, DestroysForgetAndCreationsPointAtTheNewHandle) {
  cudaEventDestroy_v3020_params destroy{};
  destroy.event = event;
  StreamEffect d = runtime_effect(CUPTI_RUNTIME_TRACE_CBID_cudaEventDestroy_v3020, &destroy);
  EXPECT_EQ(d.kind, Kind::kForgetEvent);
  EXPECT_EQ(d.event, static_cast<const void*>(event));
  cuStreamDestroy_v2_params sdestroy{};
  sdestroy.hStream = reinterpret_cast<CUstream>(side);
  EXPECT_EQ(driver_effect(CUPTI_DRIVER_TRACE_CBID_cuStreamDestroy_v2, &sdestroy).kind,
            Kind::kForgetStream);

  cudaStream_t made = nullptr;
  cudaStreamCreateWithFlags_v5000_params create{};
  create.pStream = &made;
  StreamEffect c =
      runtime_effect(CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithFlags_v5000, &create);
  EXPECT_EQ(c.kind, Kind::kCreated);
  made = side;  // what the call wrote
  ASSERT_NE(c.created, nullptr);
  EXPECT_EQ(*c.created, static_cast<const void*>(side));
  CUevent dmade = nullptr;
  cuEventCreate_params dcreate{};
  dcreate.phEvent = &dmade;
  EXPECT_EQ(driver_effect(CUPTI_DRIVER_TRACE_CBID_cuEventCreate, &dcreate).created,
            reinterpret_cast<const void* const*>(&dmade));
}

TEST(StreamEffect, OtherContextsAndStreamOperationsAreCountedWherever) {
  cuCtxCreate_v4_params ctx{};
  EXPECT_EQ(driver_effect(CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v4, &ctx).kind, Kind::kContext);
  EXPECT_EQ(runtime_effect(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020, &ctx).kind,
            Kind::kContext);
  cuStreamWriteValue32_v2_params write{};
  write.stream = reinterpret_cast<CUstream>(side);
  StreamEffect w = driver_effect(CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32_v2, &write);
  EXPECT_EQ(w.kind, Kind::kWork);
  EXPECT_FALSE(w.known);  // even on the judge's stream: no honest kernel call needs one
  EXPECT_FALSE(runtime_effect(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, nullptr)
                   .known);  // no parameters
}

// Every id this CUPTI names whose function enqueues work on a stream, records, waits, destroys,
// begins a capture or makes a context is in a watched list, or left out here with the reason.
std::set<std::string> named_ids(const char* header, const std::string& prefix) {
  std::ifstream in(header);
  std::stringstream text;
  text << in.rdbuf();
  std::set<std::string> ids;
  const std::string s = text.str();
  const std::regex id(prefix + R"((\w+)\s*=)");
  for (auto it = std::sregex_iterator(s.begin(), s.end(), id); it != std::sregex_iterator(); ++it)
    ids.insert((*it)[1].str());
  return ids;
}

TEST(StreamEffect, TheListsNameEveryEntryPointThatEnqueuesWork) {
  std::set<std::string> watched;
#define ARENA_NAME(name) watched.insert(#name);
#define ARENA_NAME2(name, field) watched.insert(#name);
  ARENA_RUNTIME_COPIES_ON_A_STREAM(ARENA_NAME)
  ARENA_RUNTIME_COPIES_OTHER(ARENA_NAME) ARENA_RUNTIME_LAUNCHES_ON_A_STREAM(ARENA_NAME)
      ARENA_RUNTIME_LAUNCHES_WITH_A_CONFIG(ARENA_NAME) ARENA_RUNTIME_LAUNCHES_OTHER(
          ARENA_NAME) ARENA_RUNTIME_EVENT_RECORDS(ARENA_NAME) ARENA_RUNTIME_STREAM_WAITS(ARENA_NAME)
          ARENA_RUNTIME_EVENT_DESTROYS(ARENA_NAME) ARENA_RUNTIME_STREAM_DESTROYS(
              ARENA_NAME) ARENA_RUNTIME_CAPTURES(ARENA_NAME) ARENA_RUNTIME_STREAM_OPS(ARENA_NAME)
              ARENA_RUNTIME_CONTEXTS(ARENA_NAME) ARENA_RUNTIME_STREAM_CREATES(
                  ARENA_NAME2) ARENA_RUNTIME_EVENT_CREATES(ARENA_NAME2)
                  ARENA_DRIVER_COPIES_ON_A_STREAM(ARENA_NAME) ARENA_DRIVER_COPIES_OTHER(
                      ARENA_NAME) ARENA_DRIVER_LAUNCHES_ON_A_STREAM(ARENA_NAME)
                      ARENA_DRIVER_LAUNCHES_WITH_A_CONFIG(ARENA_NAME) ARENA_DRIVER_LAUNCHES_OTHER(
                          ARENA_NAME) ARENA_DRIVER_EVENT_RECORDS(ARENA_NAME)
                          ARENA_DRIVER_STREAM_WAITS(ARENA_NAME) ARENA_DRIVER_EVENT_DESTROYS(
                              ARENA_NAME) ARENA_DRIVER_STREAM_DESTROYS(ARENA_NAME)
                              ARENA_DRIVER_CAPTURES(ARENA_NAME) ARENA_DRIVER_STREAM_OPS(ARENA_NAME)
                                  ARENA_DRIVER_CONTEXTS(ARENA_NAME) ARENA_DRIVER_STREAM_CREATES(
                                      ARENA_NAME2) ARENA_DRIVER_EVENT_CREATES(ARENA_NAME2)
#undef ARENA_NAME
#undef ARENA_NAME2
                                      const std::regex enqueues(
                                          R"(Memcpy|Memset|Launch|Prefetch|Discard|StreamWrite|StreamWaitValue|BatchMemOp|Semaphores|AddCallback|)"
                                          R"(Decompress|GraphUpload|MapArrayAsync|EventRecord|StreamWaitEvent|BeginCapture|CtxCreate|GreenCtxCreate|)"
                                          R"(CtxFromGreenCtx|DeviceReset|PrimaryCtxReset|ThreadExit|EventDestroy|StreamDestroy)");
  // Building or editing a graph runs nothing (its launch is watched); the <<<>>> launch's own
  // id has no parameter struct, and the cuLaunchKernel it makes is watched; the old
  // cudaStreamDestroy has none either (a creation at the same address forgets).
  const std::regex left_out(
      R"(^(cudaGraph|cuGraph)(?!Launch|Upload).*|^__cudaLaunchKernel.*|^cudaStreamDestroy_v3020$)");
  std::set<std::string> missing;
  for (const auto& [header, prefix] :
       {std::pair{ARENA_CUPTI_RUNTIME_CBIDS, "CUPTI_RUNTIME_TRACE_CBID_"},
        std::pair{ARENA_CUPTI_DRIVER_CBIDS, "CUPTI_DRIVER_TRACE_CBID_"}}) {
    const std::set<std::string> ids = named_ids(header, prefix);
    ASSERT_GT(ids.size(), 300u) << header;
    for (const std::string& id : ids)
      if (std::regex_search(id, enqueues) && !std::regex_search(id, left_out) &&
          watched.count(id) == 0)
        missing.insert(id);
  }
  std::string names;
  for (const std::string& id : missing) names += id + " ";
  EXPECT_TRUE(missing.empty()) << "not in stream_watch_cbids.hpp: " << names;
}

}  // namespace
}  // namespace arena::cuda
