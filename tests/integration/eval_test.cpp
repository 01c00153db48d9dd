// arena eval on correct solutions: the verdict's contents, the baseline comparison, seeds.

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include "scoped_env.hpp"
#include "arena_cli.hpp"
#include "core/temp_dir.hpp"
#include "judge/device_lock.hpp"

namespace arena {
namespace {

using testing::run_arena;
using testing::source_path;

TEST(Eval, StarterIsCorrectAndTheVerdictIsComplete) {
  const auto started = std::chrono::steady_clock::now();
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", source_path("tasks/cpu/vector_add_f32/starter.cpp"),
                      "--max-time", "0.3", "--seed", "21"},
                     true);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const auto& v = r.verdict;
  EXPECT_EQ(v["schema"], "kernelarena.verdict/1");
  EXPECT_EQ(v["task"], "cpu/vector_add_f32");
  EXPECT_EQ(v["summary"]["correct_visible"], true);
  EXPECT_TRUE(v["summary"]["failure_class"].is_null());
  EXPECT_EQ(v["summary"]["exit_code"], 0);
  EXPECT_EQ(v["solution"]["sha256"].get<std::string>().size(), 64u);
  EXPECT_EQ(v["device"]["kind"], "cpu");
  for (const char* k : {"compile", "runner_start", "inputs", "reference", "checks", "timing", "total", "setup"})
    EXPECT_TRUE(v["seconds"].contains(k)) << k;
  // The time before the judge (task, shapes, backend) is its own figure, outside "total".
  EXPECT_GT(v["seconds"]["setup"].get<double>(), 0);
  EXPECT_LT(v["seconds"]["setup"].get<double>() + v["seconds"]["total"].get<double>(), wall) << v["seconds"];
  ASSERT_FALSE(v["shapes"].empty());
  int pairs = 0, baseline_first = 0;
  for (const auto& s : v["shapes"]) {
    EXPECT_EQ(s["status"], "pass");
    EXPECT_GE(s["seeds"].size(), 2u);
    EXPECT_EQ(s["deterministic"], true);
    const auto& t = s["timing"];
    ASSERT_TRUE(t.is_object());
    EXPECT_GE(t["samples"].get<int>(), 5);
    EXPECT_GT(t["median_ns"].get<double>(), 0);
    EXPECT_LE(t["ci95_low_ns"].get<double>(), t["median_ns"].get<double>());
    EXPECT_GE(t["ci95_high_ns"].get<double>(), t["median_ns"].get<double>());
    EXPECT_TRUE(t["baseline"].is_object());
    EXPECT_GT(t["speedup"].get<double>(), 0);
    // Both medians' CIs combined (log scale): at least the candidate's own.
    const double cand_ci = std::log(t["ci95_high_ns"].get<double>() / t["ci95_low_ns"].get<double>()) / 2;
    EXPECT_GE(t["speedup_uncertainty"].get<double>(), cand_ci * 0.999);
    EXPECT_GT(t["gbytes_per_s"].get<double>(), 0);
    EXPECT_GE(t["order"]["pairs"].get<int>(), t["samples"].get<int>()) << t["order"];
    pairs += t["order"]["pairs"].get<int>();
    baseline_first += t["order"]["baseline_first"].get<int>();
  }
  // Candidate and baseline are timed in pairs of a random order, a coin flip per pair drawn from
  // the seed (fixed here, so the flips are too): over the shapes' pairs both orders occur.
  EXPECT_GT(baseline_first, 0) << pairs;
  EXPECT_LT(baseline_first, pairs);
  EXPECT_NE(r.output.find("result: correct"), std::string::npos) << r.output;
}

// The event window's fixed part is a GPU launch's: a host-clock backend keeps its times whole,
// whatever the override says.
TEST(Eval, AHostClockTakesNoWindowOverheadOff) {
  testing::ScopedEnv override("ARENA_WINDOW_OVERHEAD_NS", "500000");
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", source_path("tasks/cpu/vector_add_f32/starter.cpp"),
                      "--shape", "n=1000", "--max-time", "0.1"},
                     true);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto& t = r.verdict["shapes"][0]["timing"];
  EXPECT_TRUE(t["window_overhead_ns"].is_null()) << t;
  EXPECT_TRUE(t["off_stream_work"].is_null()) << t;  // no copy engines to watch
  EXPECT_GT(t["median_ns"].get<double>(), 1) << t;
}

// A solution's bytes reach the verdict (here the source line a scan warning quotes); bytes that
// are not UTF-8 become U+FFFD in the JSON instead of losing the verdict to an exception.
TEST(Eval, ASourceLineThatIsNotUtf8StillGivesAJsonVerdict) {
  TempDir dir("arena-latin1");
  const std::string file = (dir.path() / "solution.cpp").string();
  std::ofstream(file, std::ios::binary)
      << "#include <cstdlib>\n#include \"arena_signature.h\"\n"
         "extern \"C\" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {\n"
         "  (void)std::getenv(\"HOME\");  /* caf\xe9 */\n"
         "  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];\n}\n";
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", file, "--shape", "n=1000", "--no-timing"}, true);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ASSERT_FALSE(r.verdict.is_null()) << r.output;
  const auto& warnings = r.verdict["warnings"];
  ASSERT_EQ(warnings.size(), 1U) << r.verdict;
  EXPECT_NE(warnings[0]["text"].get<std::string>().find("caf\xef\xbf\xbd"), std::string::npos) << warnings[0];
}

TEST(Eval, BlockedSgemmIsFasterThanTheNaiveStarter) {
  auto r = run_arena({"-q", "eval", "-t", "cpu/sgemm_f32", "-s", source_path("examples/cpu/sgemm_f32/blocked.cpp"),
                      "--max-time", "1"},
                     true);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.verdict["summary"]["correct_visible"], true);
  // A cache-blocked, vectorized kernel against a naive triple loop: far more than noise.
  EXPECT_GT(r.verdict["summary"]["geomean_speedup_visible"].get<double>(), 1.5) << r.output;
}

TEST(Eval, AnExplicitShapeAgainstAnotherBaseline) {
  const std::string blocked = source_path("examples/cpu/sgemm_f32/blocked.cpp");
  auto r = run_arena({"-q", "eval", "-t", "cpu/sgemm_f32", "-s", source_path("tasks/cpu/sgemm_f32/starter.cpp"), "--shape",
                      "M=192,N=160,K=129", "--baseline", blocked, "--max-time", "1"},
                     true);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  ASSERT_EQ(r.verdict["shapes"].size(), 1u);
  const auto& s = r.verdict["shapes"][0];
  EXPECT_EQ(s["set"], "custom");
  EXPECT_EQ(s["params"]["K"], 129);
  EXPECT_EQ(r.verdict["baseline"]["path"], blocked);
  // The naive starter timed against the blocked example: slower than its baseline.
  EXPECT_LT(s["timing"]["speedup"].get<double>(), 1.0) << r.output;
}

TEST(Eval, SameSeedGivesTheSameInputSeedsAndResults) {
  std::vector<std::string> args = {"-q", "eval", "-t", "cpu/softmax_f32", "-s",
                                   source_path("tasks/cpu/softmax_f32/starter.cpp"), "--no-timing", "--seed", "12345"};
  auto a = run_arena(args, true);
  auto b = run_arena(args, true);
  EXPECT_EQ(a.verdict["seed"], "12345");
  EXPECT_EQ(a.verdict["seed_given"], true);
  EXPECT_EQ(a.verdict["shapes"][0]["seeds"], b.verdict["shapes"][0]["seeds"]);
  auto c = run_arena({"-q", "eval", "-t", "cpu/softmax_f32", "-s", source_path("tasks/cpu/softmax_f32/starter.cpp"),
                      "--no-timing"},
                     true);
  EXPECT_EQ(c.verdict["seed_given"], false);
  EXPECT_NE(c.verdict["shapes"][0]["seeds"], a.verdict["shapes"][0]["seeds"]);
}

TEST(Eval, HeldoutShapesAreDrawnFromTheSeedJudgedAndLabelled) {
  // prefix_sum's largest legal shape is visible, so its held-out shapes judge quickly.
  auto eval = [](const std::string& seed) {
    return run_arena({"-q", "eval", "-t", "cpu/prefix_sum_i32", "-s", source_path("tasks/cpu/prefix_sum_i32/starter.cpp"),
                      "--no-timing", "--shapes", "all", "--seed", seed},
                     true);
  };
  auto r = eval("17");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::vector<std::string> heldout, categories;
  for (const auto& s : r.verdict["shapes"]) {
    if (s["set"] != "heldout") continue;
    heldout.push_back(s["params"].dump());
    categories.push_back(s["category"].get<std::string>());
  }
  EXPECT_GE(heldout.size(), 8u) << "the declared production shapes and count: 8 drawn";
  for (const char* c : {"production", "edge", "scale_down", "alignment"})
    EXPECT_NE(std::find(categories.begin(), categories.end(), c), categories.end()) << c;
  EXPECT_EQ(r.verdict["summary"]["correct_heldout"], true);
  // The seed in the verdict reproduces the shapes; another seed draws others.
  auto again = eval("17"), other = eval("18");
  std::vector<std::string> same, different;
  for (const auto& s : again.verdict["shapes"])
    if (s["set"] == "heldout") same.push_back(s["params"].dump());
  for (const auto& s : other.verdict["shapes"])
    if (s["set"] == "heldout") different.push_back(s["params"].dump());
  EXPECT_EQ(same, heldout);
  EXPECT_NE(different, heldout);
}

TEST(Eval, EveryCpuTaskJudgesItsReferenceCorrect) {
  for (const char* task : {"cpu/vector_add_f32", "cpu/softmax_f32", "cpu/sgemm_f32", "cpu/transpose_f32",
                           "cpu/prefix_sum_i32", "cpu/rmsnorm_bf16"}) {
    std::string name = std::string(task).substr(4);
    auto r = run_arena({"-q", "eval", "-t", task, "-s", source_path("tasks/cpu/" + name + "/reference.cpp"), "--no-timing"},
                       true);
    EXPECT_EQ(r.exit_code, 0) << task << "\n" << r.output;
  }
}

TEST(Eval, JsonToStdoutKeepsTheTableOnStderr) {
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", source_path("tasks/cpu/vector_add_f32/starter.cpp"),
                      "--no-timing", "--json", "-"});
  EXPECT_EQ(r.exit_code, 0);
  auto brace = r.output.find("{\n");
  ASSERT_NE(brace, std::string::npos) << r.output;
  EXPECT_NO_THROW(nlohmann::json::parse(r.output.substr(brace)));
}

TEST(Eval, ABaselineFailingTheStressSeedMakesNoRegression) {
  // softmax without the max passes small inputs and overflows on the held-out stress seed (the
  // last, 100x larger inputs). As its own baseline, the baseline fails exactly where it does:
  // both fail, never a regression (the baseline was once judged on the first seed only).
  const std::string trap = source_path("tests/generalization/cpu/softmax_no_max.cpp");
  auto r = run_arena({"-q", "eval", "-t", "cpu/softmax_f32", "-s", trap, "--baseline", trap, "--shapes",
                      "heldout", "--seed", "3", "--no-timing"},
                     true, 900);
  ASSERT_TRUE(r.verdict.is_object()) << r.output;
  int failed = 0;
  for (const auto& s : r.verdict["shapes"]) {
    if (s["status"] == "pass") continue;
    ++failed;
    EXPECT_EQ(s["baseline_correct"], false) << s["params"].dump() << ": the same code failed here";
  }
  EXPECT_GT(failed, 0) << r.output;
  EXPECT_EQ(r.verdict["summary"]["heldout"]["regression"].get<int>(), 0) << r.output;
}

// The device lock (src/judge/device_lock.hpp): a judge whose device is held by another judge's
// timing waits, says for whom, and reports the wait apart from the timing. The other judge here
// is the test itself, holding the lock until /proc/locks shows the eval blocked on it, then half
// a second more. Returns the eval's result; *saw_waiter: whether it blocked.
testing::ArenaRun eval_while_the_device_is_timed(const std::vector<std::string>& extra, bool* saw_waiter) {
  TempDir dir("arena-lock");
  testing::ScopedEnv lock_dir("ARENA_LOCK_DIR", dir.path().c_str());
  std::optional<DeviceLock> held(std::in_place, "cpu");
  struct stat st {};
  EXPECT_EQ(stat(held->path().c_str(), &st), 0);
  const std::string inode = ":" + std::to_string(st.st_ino) + " ";
  std::atomic<bool> waiter = false;
  std::thread releaser([&] {
    for (int i = 0; i < 1200 && !waiter; ++i) {  // up to two minutes (a cold compile first)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      std::istringstream locks(read_file("/proc/locks"));
      for (std::string line; std::getline(locks, line);)
        if (line.find("->") != std::string::npos && line.find(inode) != std::string::npos) waiter = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    held.reset();
  });
  std::vector<std::string> args = {"eval", "-t", "cpu/vector_add_f32", "-s",
                                   source_path("tasks/cpu/vector_add_f32/starter.cpp"), "--shape", "n=4096"};
  args.insert(args.end(), extra.begin(), extra.end());
  auto r = run_arena(args, true);
  releaser.join();
  *saw_waiter = waiter;
  return r;
}

TEST(Eval, WaitsWhileAnotherJudgeTimesOnTheSameDevice) {
  bool saw_waiter = false;
  auto r = eval_while_the_device_is_timed({"--max-time", "0.2"}, &saw_waiter);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(saw_waiter) << "the eval never waited on the lock";
  EXPECT_NE(r.output.find("waiting for the device: pid " + std::to_string(getpid()) + " is timing on it"),
            std::string::npos)
      << r.output;
  EXPECT_GE(r.verdict["seconds"]["device_wait"].get<double>(), 0.4) << r.verdict["seconds"];
  EXPECT_LT(r.verdict["seconds"]["timing"].get<double>(), r.verdict["seconds"]["device_wait"].get<double>() + 5);
}

// Correctness work waits too: its calls would run beside the other judge's timed ones. An eval
// that only checks (--no-timing) waits for the device and runs no call before it has it.
TEST(Eval, ChecksWaitWhileAnotherJudgeTimesOnTheSameDevice) {
  bool saw_waiter = false;
  auto r = eval_while_the_device_is_timed({"--no-timing"}, &saw_waiter);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(saw_waiter) << "the checks never waited on the lock";
  EXPECT_NE(r.output.find("waiting for the device: pid " + std::to_string(getpid()) + " is timing on it"),
            std::string::npos)
      << r.output;
  EXPECT_GE(r.verdict["seconds"]["device_wait"].get<double>(), 0.4) << r.verdict["seconds"];
  EXPECT_EQ(r.verdict["shapes"][0]["status"], "pass") << r.output;
}

TEST(Report, SumsTheHeldoutQuadrantsOverVerdicts) {
  // The GEMM trap that needs K >= 64 passes the visible shapes and regresses on held-out K < 64.
  const auto dir = std::filesystem::temp_directory_path() / ("arena-report-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string trap = (dir / "trap.json").string(), starter = (dir / "starter.json").string();
  auto a = run_arena({"-q", "eval", "-t", "cpu/sgemm_f32", "-s", source_path("tests/generalization/cpu/sgemm_k_blocks_of_64.cpp"),
                      "--shapes", "all", "--seed", "1", "--no-timing", "--json", trap});
  EXPECT_EQ(a.exit_code, 1) << a.output;
  auto b = run_arena({"-q", "eval", "-t", "cpu/sgemm_f32", "-s", source_path("tasks/cpu/sgemm_f32/starter.cpp"), "--shapes",
                      "all", "--seed", "1", "--no-timing", "--json", starter});
  EXPECT_EQ(b.exit_code, 0) << b.output;
  auto r = run_arena({"report", trap, starter});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("regression"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("held-out over 2 verdict(s)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("100%"), std::string::npos) << "the starter is correct wherever the baseline is\n" << r.output;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace arena
