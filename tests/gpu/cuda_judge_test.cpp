// The CUDA judge on a real GPU (label gpu). Skips, saying why, where no GPU is visible.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../integration/arena_cli.hpp"
#include "scoped_env.hpp"

namespace arena {
namespace {

using testing::run_arena;
using testing::source_path;

class CudaJudge : public ::testing::Test {
 protected:
  void SetUp() override {
    auto info = run_process({std::string(ARENA_RUNNER_CUDA), "--info", "0"}, 60);
    if (info.exit_code != 0) GTEST_SKIP() << "no GPU visible (" << info.output << "): CUDA judge tests skipped";
  }
};

std::string broken_cuda(const std::string& name) { return std::string(ARENA_TEST_DATA) + "/broken/cuda/" + name + ".cu"; }
// A cheat of the red-team set (tests/redteam/cuda).
std::string redteam_cuda(const std::string& name) { return source_path("tests/redteam/cuda/" + name + ".cu"); }

TEST_F(CudaJudge, StarterIsCorrectAndTimed) {
  auto r = run_arena({"-q", "eval", "-t", "cuda/vector_add_f32", "-s", source_path("tasks/cuda/vector_add_f32/starter.cu"),
                      "--max-time", "0.5"},
                     true);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  for (const auto& s : r.verdict["shapes"]) {
    EXPECT_EQ(s["status"], "pass");
    EXPECT_GT(s["timing"]["median_ns"].get<double>(), 0);
    EXPECT_TRUE(s["timing"]["baseline"].is_object());
  }
  EXPECT_EQ(r.verdict["device"]["kind"], "cuda");
  EXPECT_TRUE(r.verdict["flags"].empty()) << r.verdict["flags"];
  for (const auto& s : r.verdict["shapes"]) {
    EXPECT_EQ(s["timing"]["checked_on"], "device") << s["timing"];
    EXPECT_EQ(s["checked_on"], "device") << s;
    // The stream watch was on (CUPTI in the runner) and the starter works on its stream alone.
    EXPECT_EQ(s["timing"]["off_stream_work"], 0) << s["timing"];
  }
}

// The checked calls' failures, found on the device (judge/checked_calls_on_device), each with
// its class and the host checker's explanation.
TEST_F(CudaJudge, CheckedCallsFailuresAreFoundOnTheDevice) {
  struct Case {
    const char* file;
    const char* failure_class;
    const char* says;
  };
  for (const Case& c : {Case{"wrong_tail", "wrong_values", "never written"},
                        Case{"mutate_input", "input_mutated", "changed its input 'b'"},
                        Case{"write_before_start", "out_of_bounds", "before the start of 'out'"},
                        Case{"differs_on_second_call", "nondeterministic", "two calls on the same inputs disagree: out[5]"},
                        Case{"stale_on_second_call", "wrong_values", "(stale output)"}}) {
    auto r = run_arena({"-q", "eval", "-t", "cuda/vector_add_f32", "-s", broken_cuda(c.file), "--shape", "n=100003",
                        "--no-timing"},
                       true);
    EXPECT_EQ(r.exit_code, 1) << c.file << ": " << r.output;
    EXPECT_EQ(r.verdict["summary"]["failure_class"], c.failure_class) << c.file << ": " << r.output;
    EXPECT_NE(r.verdict["shapes"][0]["message"].get<std::string>().find(c.says), std::string::npos)
        << c.file << ": " << r.verdict["shapes"][0]["message"];
    EXPECT_EQ(r.verdict["shapes"][0]["checked_on"], "device") << c.file << ": " << r.verdict["shapes"][0];
  }
}

// The timed calls' tensors are laid out and checked on the device (judge/timed_data_on_device);
// so are the checked calls' (judge/checked_calls_on_device). ARENA_DEVICE_PLANE=0 moves them
// through the host as before, and the verdict says which.
TEST_F(CudaJudge, TimedDataStaysOnTheDeviceUnlessTurnedOff) {
  const std::vector<std::string> args = {"-q", "eval", "-t", "cuda/softmax_f32", "-s",
                                         source_path("tasks/cuda/softmax_f32/starter.cu"), "--shape",
                                         "rows=1000 cols=517", "--max-time", "0.3"};
  auto on = run_arena(args, true);
  ASSERT_EQ(on.exit_code, 0) << on.output;
  EXPECT_EQ(on.verdict["shapes"][0]["timing"]["checked_on"], "device") << on.output;
  EXPECT_EQ(on.verdict["shapes"][0]["timing"]["inputs_per_call"], "reordered along rows");
  EXPECT_EQ(on.verdict["shapes"][0]["checked_on"], "device") << on.output;
  auto off = [&] {
    testing::ScopedEnv plane_off("ARENA_DEVICE_PLANE", "0");
    return run_arena(args, true);
  }();
  ASSERT_EQ(off.exit_code, 0) << off.output;
  EXPECT_EQ(off.verdict["shapes"][0]["timing"]["checked_on"], "host");
  EXPECT_FALSE(off.verdict["shapes"][0]["timing"]["checked_on_host_because"].get<std::string>().empty());
  EXPECT_EQ(off.verdict["shapes"][0]["checked_on"], "host");
  EXPECT_FALSE(off.verdict["shapes"][0]["checked_on_host_because"].get<std::string>().empty());
}

// What goes wrong only in timed calls, seen on the device; an output that differs from the
// verified one only within the tolerance passes.
TEST_F(CudaJudge, TimedCallsAreCheckedOnTheDevice) {
  auto eval = [](const std::string& file) {
    return run_arena({"-q", "eval", "-t", "cuda/vector_add_f32", "-s", broken_cuda(file), "--shape", "n=100003",
                      "--max-time", "0.3"},
                     true);
  };
  auto wrong = eval("wrong_when_timed");
  EXPECT_EQ(wrong.exit_code, 1) << wrong.output;
  EXPECT_EQ(wrong.verdict["summary"]["failure_class"], "wrong_values") << wrong.output;
  EXPECT_NE(wrong.output.find("a timed call's output was wrong"), std::string::npos) << wrong.output;
  auto past_end = eval("write_past_end_when_timed");
  EXPECT_EQ(past_end.exit_code, 1) << past_end.output;
  EXPECT_NE(past_end.output.find("wrote outside its output during timing"), std::string::npos) << past_end.output;
  auto ulp = eval("off_by_an_ulp_when_timed");
  EXPECT_EQ(ulp.exit_code, 0) << ulp.output;
  EXPECT_EQ(ulp.verdict["shapes"][0]["status"], "pass") << ulp.output;
  EXPECT_EQ(ulp.verdict["shapes"][0]["timing"]["checked_on"], "device");
}

// Each timed pair runs on both sides' next placement in device memory (judge/placements.hpp): the
// verdict says how many, every placement's guard bytes are laid (an honest solution passes on all
// of them) and checked (a solution that writes past its output only where its output moved is
// found), and ARENA_PLACEMENTS=1 keeps one place.
TEST_F(CudaJudge, TimedPairsMoveFromPlacementToPlacement) {
  auto eval = [](const std::string& file) {
    return run_arena({"-q", "eval", "-t", "cuda/vector_add_f32", "-s", file, "--shape", "n=100003", "--shape",
                      "n=4194304", "--max-time", "0.3"},
                     true);
  };
  auto honest = eval(source_path("tasks/cuda/vector_add_f32/starter.cu"));
  ASSERT_EQ(honest.exit_code, 0) << honest.output;
  for (const auto& s : honest.verdict["shapes"]) {
    // 8 places for each side, shared out among its 2 runners (judge/timed_runners.hpp).
    EXPECT_EQ(s["timing"]["runners"]["candidate"], 2) << s["timing"];
    EXPECT_EQ(s["timing"]["placements"], 4) << s["timing"];
    EXPECT_GT(s["timing"]["order"]["pairs"].get<int>(), 8) << "every placement was used";
  }
  const std::string moved = broken_cuda("write_past_end_when_moved");
  auto caught = run_arena({"-q", "eval", "-t", "cuda/vector_add_f32", "-s", moved, "--shape", "n=100003", "--max-time",
                           "0.3"},
                          true);
  EXPECT_EQ(caught.exit_code, 1) << caught.output;
  EXPECT_NE(caught.output.find("wrote outside its output during timing"), std::string::npos) << caught.output;
  testing::ScopedEnv one("ARENA_PLACEMENTS", "1");
  auto kept = run_arena({"-q", "eval", "-t", "cuda/vector_add_f32", "-s", moved, "--shape", "n=100003", "--max-time",
                         "0.3"},
                        true);
  EXPECT_EQ(kept.exit_code, 0) << "with one placement its output never moves: " << kept.output;
  EXPECT_EQ(kept.verdict["shapes"][0]["timing"]["placements"], 1) << kept.output;
}

TEST_F(CudaJudge, AnInputChangedOnlyWhileTimedIsFound) {
  // On the device, and on the host path (each timed side's two runners: the inputs of the one
  // called last come back from the device; the other's region already holds newer ones).
  for (const char* plane : {"1", "0"}) {
    testing::ScopedEnv set("ARENA_DEVICE_PLANE", plane);
    auto r = run_arena({"-q", "eval", "-t", "cuda/vector_add_f32", "-s", redteam_cuda("mutate_input_when_timed"),
                        "--shape", "n=100000", "--max-time", "0.3"},
                       true);
    EXPECT_EQ(r.exit_code, 1) << "ARENA_DEVICE_PLANE=" << plane << ": " << r.output;
    EXPECT_EQ(r.verdict["summary"]["failure_class"], "input_mutated") << r.output;
    EXPECT_NE(r.output.find("during timing"), std::string::npos) << r.output;
    EXPECT_EQ(r.verdict["shapes"][0]["checked_on"], std::string(plane) == "1" ? "device" : "host") << r.output;
  }
}

TEST_F(CudaJudge, GraphModeTimesPerCallAndSaysSo) {
  const std::vector<std::string> base = {"-q", "eval", "-t", "cuda/vector_add_f32", "-s",
                                         source_path("tasks/cuda/vector_add_f32/starter.cu"), "--shape", "n=100000",
                                         "--max-time", "0.5", "--seed", "7"};
  // The single call's whole event window (no fixed part taken off: window_overhead.hpp).
  testing::ArenaRun single;
  {
    testing::ScopedEnv off("ARENA_WINDOW_OVERHEAD_NS", "0");
    single = run_arena(base, true);
  }
  EXPECT_TRUE(single.verdict["shapes"][0]["timing"]["window_overhead_ns"].is_null());
  auto args = base;
  args.insert(args.end(), {"--graph", "20"});
  auto graph = run_arena(args, true);
  ASSERT_EQ(graph.exit_code, 0) << graph.output;
  const auto& t = graph.verdict["shapes"][0]["timing"];
  EXPECT_EQ(t["mode"], "graph");
  EXPECT_EQ(t["graph_launches"], 20);
  EXPECT_NE(graph.output.find("timing mode: CUDA graph, 20 calls per replay"), std::string::npos) << graph.output;
  // A replay of 20 launches amortizes the launch overhead a single call's window carries.
  double per_call = t["median_ns"].get<double>();
  double alone = single.verdict["shapes"][0]["timing"]["median_ns"].get<double>();
  EXPECT_GT(per_call, 0);
  EXPECT_LT(per_call, alone) << "graph " << per_call << " ns per call vs " << alone << " ns for one call";
  EXPECT_TRUE(graph.verdict["flags"].empty()) << graph.verdict["flags"];
}

// The event window's fixed part comes off every plain timed call of both sides; a graph replay
// keeps its window whole. An override larger than any call's window leaves each sample at the
// least positive time, which the roofline then calls impossible.
TEST_F(CudaJudge, TheWindowsFixedPartIsTakenOffPlainCallsOnly) {
  const std::vector<std::string> base = {"-q", "eval", "-t", "cuda/vector_add_f32", "-s",
                                         source_path("tasks/cuda/vector_add_f32/starter.cu"), "--shape", "n=100000",
                                         "--max-time", "0.2"};
  testing::ScopedEnv override("ARENA_WINDOW_OVERHEAD_NS", "1000000");
  auto plain = run_arena(base, true);
  auto args = base;
  args.insert(args.end(), {"--graph", "5"});
  auto graph = run_arena(args, true);
  EXPECT_EQ(plain.exit_code, 1) << plain.output;  // impossible_speed voids the speedup
  ASSERT_TRUE(plain.verdict["shapes"].is_array()) << plain.output;
  const auto& t = plain.verdict["shapes"][0]["timing"];
  EXPECT_EQ(t["window_overhead_ns"], 1000000.0) << t;
  EXPECT_EQ(t["median_ns"], 1.0) << t;
  EXPECT_EQ(t["baseline"]["median_ns"], 1.0) << t;
  EXPECT_NE(plain.output.find("times: event windows less the device's fixed"), std::string::npos) << plain.output;
  EXPECT_EQ(graph.output.find("event windows less"), std::string::npos) << graph.output;
  bool impossible = false;
  for (const auto& f : plain.verdict["flags"]) impossible = impossible || f["name"] == "impossible_speed";
  EXPECT_TRUE(impossible) << plain.verdict["flags"];
  ASSERT_EQ(graph.exit_code, 0) << graph.output;
  const auto& g = graph.verdict["shapes"][0]["timing"];
  EXPECT_TRUE(g["window_overhead_ns"].is_null()) << g;
  EXPECT_GT(g["median_ns"].get<double>(), 100) << g;
}

TEST_F(CudaJudge, ACuBlasExpertIsABaseline) {
  auto r = run_arena({"-q", "eval", "-t", "cuda/gemm_bf16", "-s", source_path("tasks/cuda/gemm_bf16/starter.cu"), "--baseline",
                      "expert", "--shape", "M=1024 N=1024 K=1024", "--max-time", "0.5"},
                     true);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const auto& t = r.verdict["shapes"][0]["timing"];
  ASSERT_TRUE(t["baseline"].is_object()) << r.output;
  EXPECT_TRUE(r.verdict["flags"].empty()) << r.verdict["flags"];
  // cuBLAS beats the naive starter by far and reaches a real share of the bf16 peak.
  EXPECT_LT(t["speedup"].get<double>(), 0.2) << r.output;
  EXPECT_GT(t["baseline"]["roofline_fraction"].get<double>(), 0.2) << r.output;
}

struct GpuCase {
  const char* file;
  const char* failure_class;
  bool cheat = false;  // in tests/redteam/cuda
};
void PrintTo(const GpuCase& c, std::ostream* os) { *os << c.file << " -> " << c.failure_class; }

class CudaBroken : public CudaJudge, public ::testing::WithParamInterface<GpuCase> {};

TEST_P(CudaBroken, GetsExactlyItsFailureClass) {
  const std::string file = GetParam().cheat ? redteam_cuda(GetParam().file) : broken_cuda(GetParam().file);
  auto r = run_arena({"-q", "eval", "-t", "cuda/vector_add_f32", "-s", file, "--no-timing",
                      "--timeout", "3"},
                     true);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.verdict["summary"]["failure_class"], GetParam().failure_class) << r.output;
}

INSTANTIATE_TEST_SUITE_P(Gpu, CudaBroken,
                         ::testing::Values(GpuCase{"illegal_address", "crash"},
                                           GpuCase{"too_much_shared_memory", "launch_error"},
                                           GpuCase{"endless_loop", "timeout"},
                                           GpuCase{"write_past_end", "out_of_bounds", true},
                                           GpuCase{"nan_output", "nan_inf"}),
                         [](const auto& info) { return std::string(info.param.file); });

// The hold fills every SM (backends/cuda/hold_kernel.cuh): a call that waits for device work
// off its stream (here a kernel on a stream of its own) cannot finish until the hold gives up,
// and fails saying why. The runner's first call is not held, so it is the repeat call on the
// first seed that fails. The timeout is above the hold's 5 s limit.
// --timeout 3: the hold gives up at half the call's limit (1.5 s), so the blocked call is reported
// as one, not as the judge's timeout (the hold's own 5 s limit is above it).
TEST_F(CudaJudge, ACallThatWaitsForTheHeldDeviceFailsAndSaysWhy) {
  auto r = run_arena({"-q", "eval", "-t", "cuda/vector_add_f32", "-s", broken_cuda("waits_for_own_stream"), "--shape",
                      "n=100003", "--no-timing", "--timeout", "3"},
                     true);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.verdict["summary"]["failure_class"], "crash") << r.output;
  EXPECT_NE(r.verdict["shapes"][0]["message"].get<std::string>().find("blocked while the device was held"),
            std::string::npos)
      << r.verdict["shapes"][0]["message"];
}

TEST_F(CudaJudge, WorkOnASideStreamIsFlagged) {
  auto r = run_arena({"-q", "eval", "-t", "cuda/vector_add_f32", "-s", redteam_cuda("side_stream"), "--max-time", "0.5"}, true);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.verdict["summary"]["correct_visible"], true);
  bool flagged = false;
  for (const auto& f : r.verdict["flags"]) flagged = flagged || f["name"] == "work_outside_stream";
  EXPECT_TRUE(flagged) << r.output;
  // Its launches on a stream of its own, not forked from the judge's, are counted as well.
  EXPECT_GT(r.verdict["shapes"][0]["timing"]["off_stream_work"].get<uint64_t>(), 0u) << r.output;
}

// --sanitize needs compute-sanitizer besides the GPU: skipped, saying so, where it is missing.
class CudaSanitize : public CudaJudge {
 protected:
  void SetUp() override {
    CudaJudge::SetUp();
    if (IsSkipped()) return;
    auto found = run_process({"sh", "-c",
                              "test -n \"$ARENA_COMPUTE_SANITIZER\" || command -v compute-sanitizer || "
                              "test -x /usr/local/cuda/bin/compute-sanitizer"},
                             30);
    if (found.exit_code != 0) GTEST_SKIP() << "compute-sanitizer not found: --sanitize tests skipped";
  }
};

TEST_F(CudaSanitize, StarterIsClean) {
  auto r = run_arena({"-q", "eval", "-t", "cuda/vector_add_f32", "-s", source_path("tasks/cuda/vector_add_f32/starter.cu"),
                      "--no-timing", "--sanitize"},
                     true, 900);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  ASSERT_TRUE(r.verdict["sanitizer"].is_object()) << r.output;
  EXPECT_EQ(r.verdict["sanitizer"]["ok"], true) << r.output;
  EXPECT_EQ(r.verdict["sanitizer"]["shape"]["n"], 1000003);  // the smallest visible shape
  for (const char* tool : {"memcheck", "racecheck", "initcheck", "synccheck"}) {
    const auto& t = r.verdict["sanitizer"]["tools"][tool];
    EXPECT_EQ(t["ok"], true) << tool << ":\n" << t["report"].get<std::string>();
    EXPECT_EQ(t["errors"], 0) << tool;
    EXPECT_EQ(t["exit_code"], 0) << tool;
  }
  EXPECT_GT(r.verdict["seconds"]["sanitizer"].get<double>(), 0);
}

TEST_F(CudaSanitize, SharedMemoryRaceFailsWithClassSanitizer) {
  auto r = run_arena({"-q", "eval", "-t", "cuda/vector_add_f32", "-s", broken_cuda("race"), "--no-timing", "--sanitize"},
                     true, 900);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.verdict["summary"]["correct_visible"], true) << r.output;  // the values are right
  EXPECT_EQ(r.verdict["summary"]["failure_class"], "sanitizer") << r.output;
  const auto& race = r.verdict["sanitizer"]["tools"]["racecheck"];
  EXPECT_EQ(race["ok"], false) << r.output;
  EXPECT_GT(race["errors"].get<int>(), 0) << race["report"].get<std::string>();
  EXPECT_NE(race["report"].get<std::string>().find("RACECHECK SUMMARY"), std::string::npos) << race["report"];
  EXPECT_EQ(r.verdict["sanitizer"]["tools"]["memcheck"]["ok"], true) << r.verdict["sanitizer"];
}

// arena-tool profile needs Nsight Compute besides the GPU: skipped, saying so, where it is missing.
class CudaProfile : public CudaJudge {
 protected:
  void SetUp() override {
    CudaJudge::SetUp();
    if (IsSkipped()) return;
    auto found = run_process({"sh", "-c", "test -n \"$ARENA_NCU\" || command -v ncu || test -x /usr/local/cuda/bin/ncu"}, 30);
    if (found.exit_code != 0) GTEST_SKIP() << "ncu not found: profile tests skipped";
  }
};

TEST_F(CudaProfile, AProfileRoundMeasuresTheStartersKernel) {
  auto runs = std::filesystem::temp_directory_path() / ("arena-gpu-profile-" + std::to_string(getpid()));
  std::filesystem::remove_all(runs);
  auto r = run_arena({"-q", "run", "--agent", std::string(ARENA_TEST_DATA) + "/agents/profiler_agent.yaml", "--task",
                      "cuda/vector_add_f32", "--num-iterations", "2", "--sandbox", "none", "--max-time", "0.2",
                      "--runs-dir", runs.string()},
                     false, 900);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::filesystem::path ep;
  for (const auto& run : std::filesystem::directory_iterator(runs)) ep = run.path() / "episodes" / "cuda-vector_add_f32-r1";
  std::string log = read_file(ep / "agent.log");
  EXPECT_NE(log.find("profiler_agent: profile: exit code 0"), std::string::npos) << log;
  EXPECT_NE(log.find("profiler_agent: eval: exit code 0"), std::string::npos) << log;
  std::ifstream traj(ep / "trajectory.jsonl");
  std::string first;
  std::getline(traj, first);
  auto round1 = nlohmann::json::parse(first);
  EXPECT_EQ(round1["kind"], "profile") << first;
  auto profile = nlohmann::json::parse(read_file(ep / "verdicts" / "round-001.profile.json"));
  ASSERT_EQ(profile["profile"]["ok"], true) << profile.dump(2);
  ASSERT_GE(profile["profile"]["kernels"].size(), 1u) << profile.dump(2);
  const auto& m = profile["profile"]["kernels"][0]["metrics"];
  EXPECT_GT(m.value("gpu__time_duration.sum", 0.0), 0) << profile.dump(2);
  EXPECT_GT(m.value("launch__registers_per_thread", 0.0), 0) << profile.dump(2);
  // The final solution is the eval round's, judged correct.
  auto e = nlohmann::json::parse(read_file(ep / "episode.json"));
  EXPECT_EQ(e["final"]["round"], 2) << e.dump(2);
  EXPECT_EQ(e["final"]["correct_visible"], true) << e.dump(2);
  std::filesystem::remove_all(runs);
}

}  // namespace
}  // namespace arena
