// `arena-tool profile` rounds through the real Rounds, judge path, Lane and runner, on a CPU task,
// with tests/data/fake_ncu.sh standing in for Nsight Compute (no GPU, no ncu in CI): the fake
// writes a report in ncu's CSV form and runs the real runner under it. A CUDA backend whose
// profiler is the real ncu runs the same code (tests/gpu/cuda_judge_test.cpp).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <nlohmann/json.hpp>

#include "arena/episode_result.hpp"
#include "arena/rounds.hpp"
#include "arena_cli.hpp"
#include "backends/cpu/cpu_backend.hpp"
#include "core/subprocess.hpp"
#include "core/task_loader.hpp"
#include "scoped_env.hpp"

namespace arena::testing {
namespace {

namespace fs = std::filesystem;

// The CPU backend with the fake profiler wrapped around its runner.
class ProfiledCpuBackend : public CpuBackend {
 public:
  using CpuBackend::CpuBackend;
  std::string profiler_unavailable() const override { return ""; }
  RunnerSpec profiler_runner(const RunnerSpec& plain, const fs::path& report_file) const override {
    RunnerSpec s = plain;
    s.wrapper = {std::string(ARENA_TEST_DATA) + "/fake_ncu.sh", "--csv", "--log-file",
                 report_file.string()};
    return s;
  }
};

class ProfileRoundTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("arena-profile-round-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    paths_ = std::make_unique<EpisodePaths>(dir_);
    for (const auto& d : {paths_->workspace, paths_->snapshots, paths_->verdicts})
      fs::create_directories(d);
    BackendOptions o;
    o.cache_dir = dir_ / "cache";
    o.runner_dir = ARENA_RUNNER_DIR;
    profiled_ = std::make_unique<ProfiledCpuBackend>(o);
    plain_ = std::make_unique<CpuBackend>(o);
    task_ = load_task(task_copy_.dir());
    starter_ = read_file(fs::path(task_copy_.dir()) / "starter.cpp");
  }
  void TearDown() override { fs::remove_all(dir_); }
  // The fake ncu's mode: unset (a good report) unless a test sets it; put back as the test ends.
  ScopedEnv ncu_mode_{"FAKE_NCU_MODE", nullptr};
  std::unique_ptr<Rounds> rounds(const Backend& backend, int limit) {
    RoundsSetup s;
    s.task = &task_;
    s.backend = &backend;
    s.paths = *paths_;
    s.solution_file = "solution.cpp";
    s.limit = limit;
    s.max_time_s = 0.05;
    s.start_seconds = now_seconds();
    return std::make_unique<Rounds>(s);
  }

  TaskCopy task_copy_;
  fs::path dir_;
  std::unique_ptr<EpisodePaths> paths_;
  std::unique_ptr<Backend> profiled_, plain_;
  Task task_;
  std::string starter_;
};

TEST_F(ProfileRoundTest, AProfileTakesARoundAndAnswersWithThePerKernelTable) {
  auto r = rounds(*profiled_, 3);
  tool::Reply p =
      r->handle({{"command", "profile"}, {"file", "solution.cpp"}, {"source", starter_}});
  EXPECT_EQ(p.exit_code, tool::kExitCorrect) << p.text;
  EXPECT_NE(p.text.find("round 1 of 3 (profile)"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("vector_add_kernel(const float *"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("12.3 us"), std::string::npos) << p.text;  // "12,345" ns
  EXPECT_NE(p.text.find("87.5 %"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("tail_kernel"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("rounds: 1 of 3 used"), std::string::npos) << p.text;
  ASSERT_TRUE(p.json.contains("profile")) << p.json.dump();
  const auto& kernels = p.json["profile"]["kernels"];
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0]["metrics"]["gpu__time_duration.sum"], 12345.0);
  EXPECT_FALSE(kernels[0]["metrics"].contains("lts__t_sector_hit_rate.pct"));  // n/a
  EXPECT_EQ(kernels[1]["metrics"]["gpu__time_duration.sum"], 1024.5);
  // The smallest visible shape of the task.
  EXPECT_EQ(p.json["profile"]["shape"], "n=1000003") << p.json.dump();
  EXPECT_TRUE(fs::exists(paths_->verdicts / "round-001.profile.json"));
  EXPECT_TRUE(fs::exists(paths_->snapshots / "round-001.cpp"));

  // Then an eval: round 2, the best and the only judged round.
  tool::Reply e = r->eval("solution.cpp", starter_);
  EXPECT_EQ(e.exit_code, tool::kExitCorrect) << e.text;
  auto records = read_trajectory(paths_->trajectory);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].kind, "profile");
  EXPECT_TRUE(records[0].compiled);
  EXPECT_FALSE(records[0].correct_visible);
  EXPECT_EQ(records[1].kind, "eval");
  EXPECT_EQ(best_round(records), 2);
  EpisodeResult res;
  add_round_figures(res, records);
  EXPECT_EQ(res.rounds_used, 2);
  EXPECT_EQ(res.first_correct_round, 2);
  // The same source profiled then judged is no identical resubmission.
  EXPECT_EQ(res.identical_resubmissions, 0);
}

TEST_F(ProfileRoundTest, AFailedProfileCountsAsARoundAndSaysWhy) {
  auto r = rounds(*profiled_, 3);
  std::optional<ScopedEnv> mode(std::in_place, "FAKE_NCU_MODE", "silent");
  tool::Reply p = r->profile("solution.cpp", starter_);
  EXPECT_EQ(p.exit_code, tool::kExitNotCorrect) << p.text;
  EXPECT_NE(p.text.find("the profiler wrote no report"), std::string::npos) << p.text;
  mode.reset();
  mode.emplace("FAKE_NCU_MODE", "garbled");
  p = r->profile("solution.cpp", starter_);
  EXPECT_EQ(p.exit_code, tool::kExitNotCorrect) << p.text;
  EXPECT_NE(p.text.find("the header lacks one of the columns"), std::string::npos) << p.text;
  auto records = read_trajectory(paths_->trajectory);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_NE(records[1].failure_message.find("could not be read"), std::string::npos);
}

TEST_F(ProfileRoundTest, ASourceThatDoesNotCompileIsNotProfiled) {
  auto r = rounds(*profiled_, 2);
  tool::Reply p = r->profile("solution.cpp", "this is not C++\n");
  EXPECT_EQ(p.exit_code, tool::kExitNotCorrect) << p.text;
  EXPECT_NE(p.text.find("does not compile, so it was not profiled"), std::string::npos) << p.text;
  auto records = read_trajectory(paths_->trajectory);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_FALSE(records[0].compiled);
  EXPECT_EQ(records[0].failure_class, "compile_error");
}

TEST_F(ProfileRoundTest, AProfilePastTheBudgetIsRefused) {
  auto r = rounds(*profiled_, 1);
  EXPECT_EQ(r->eval("solution.cpp", starter_).exit_code, tool::kExitCorrect);
  tool::Reply p = r->profile("solution.cpp", starter_);
  EXPECT_EQ(p.exit_code, tool::kExitBudgetExhausted) << p.text;
  EXPECT_EQ(r->refused(), 1);
  EXPECT_EQ(read_trajectory(paths_->trajectory).size(), 1u);
}

TEST_F(ProfileRoundTest, WithoutAProfilerNoRoundIsTaken) {
  auto r = rounds(*plain_, 1);
  tool::Reply p = r->profile("solution.cpp", starter_);
  EXPECT_EQ(p.exit_code, tool::kExitUsage) << p.text;
  EXPECT_NE(p.text.find("the cpu backend has no profiler"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("no round was taken"), std::string::npos) << p.text;
  // The one round is still there.
  EXPECT_EQ(r->eval("solution.cpp", starter_).exit_code, tool::kExitCorrect);
}

}  // namespace
}  // namespace arena::testing
