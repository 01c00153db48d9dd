// arena run --agent autotune: the knob search end to end on a CPU task whose starter declares a
// knob; the trajectory, the budget, the final solution, and a starter without knobs.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "arena_cli.hpp"
#include "core/sha256.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using testing::run_arena;
using testing::TaskCopy;

nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

std::vector<nlohmann::json> read_trajectory(const fs::path& p) {
  std::ifstream in(p);
  std::vector<nlohmann::json> rounds;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) rounds.push_back(nlohmann::json::parse(line));
  return rounds;
}

const std::string kKnobbedStarter = std::string(ARENA_TEST_DATA) + "/knobs/vector_add_f32_unrolled.cpp";

// A vector_add task (held-out shapes kept small) whose starter may be replaced, and a runs
// directory of its own.
class AutotuneTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static int counter = 0;
    runs_ = fs::temp_directory_path() /
            ("arena-autotune-test-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(runs_);
    task_.edit_yaml("  count: 8\n", "  count: 2\n");
  }
  void TearDown() override { fs::remove_all(runs_); }

  testing::ArenaRun run(std::vector<std::string> extra) {
    std::vector<std::string> args = {"-q", "--tasks-dir", task_.root(), "run", "--task", "cpu/vector_add_f32",
                                     "--runs-dir", runs_.string(), "--max-time", "0.1", "--agent", "autotune"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_arena(args, false, 900);
  }
  fs::path episode() const {
    return fs::directory_iterator(runs_)->path() / "episodes" / "cpu-vector_add_f32-r1";
  }

  fs::path runs_;
  TaskCopy task_;
};

TEST_F(AutotuneTest, SearchesTheKnobsOneSettingPerRoundWithinTheBudget) {
  task_.replace_file("starter.cpp", kKnobbedStarter);
  auto r = run({"--num-iterations", "3", "--final", "best"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  fs::path ep = episode();
  auto rounds = read_trajectory(ep / "trajectory.jsonl");
  // UNROLL has 4 candidates, more than 3 rounds: coordinate descent, every round a new setting.
  ASSERT_EQ(rounds.size(), 3u) << read_file(ep / "agent.log");
  std::set<std::string> hashes;
  for (const auto& round : rounds) hashes.insert(round["sha256"].get<std::string>());
  EXPECT_EQ(hashes.size(), rounds.size()) << "a setting was submitted twice";
  // The first round is the starter as declared.
  EXPECT_EQ(rounds[0]["sha256"], sha256_hex(read_file(kKnobbedStarter)));
  EXPECT_EQ(rounds[0]["verdict"]["correct_visible"], true);

  auto e = read_json(ep / "episode.json");
  EXPECT_EQ(e["agent"], "autotune");
  EXPECT_EQ(e["rounds"]["used"], 3);
  EXPECT_EQ(e["rounds"]["refused"], 0);
  EXPECT_EQ(e["rounds"]["identical_resubmissions"], 0);
  EXPECT_EQ(e["final"]["mode"], "best");
  EXPECT_EQ(e["final"]["round"], e["rounds"]["best"]);
  EXPECT_EQ(e["final"]["correct_heldout"], true);
  // The best setting is left in the workspace.
  EXPECT_EQ(e["final"]["sha256"], sha256_hex(read_file(ep / "workspace" / "solution.cpp")));
  std::string log = read_file(ep / "agent.log");
  EXPECT_NE(log.find("autotune: round 1: UNROLL=1: correct"), std::string::npos) << log;
  EXPECT_NE(log.find("coordinate descent"), std::string::npos) << log;
}

TEST_F(AutotuneTest, UnderFinalLastTheBestSettingIsJudgedToo) {
  task_.replace_file("starter.cpp", kKnobbedStarter);
  auto r = run({"--num-iterations", "4"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  fs::path ep = episode();
  auto rounds = read_trajectory(ep / "trajectory.jsonl");
  EXPECT_LE(rounds.size(), 4u);
  EXPECT_GE(rounds.size(), 3u);  // three settings at least, then the best again unless it came last
  auto e = read_json(ep / "episode.json");
  EXPECT_EQ(e["final"]["mode"], "last");
  EXPECT_EQ(e["final"]["round"], static_cast<int>(rounds.size()));
  // Whatever round came last, the final solution is the best setting, left in the workspace.
  const std::string best = rounds[e["rounds"]["best"].get<int>() - 1]["sha256"];
  EXPECT_EQ(e["final"]["sha256"], best) << read_file(ep / "agent.log");
  EXPECT_EQ(sha256_hex(read_file(ep / "workspace" / "solution.cpp")), best);
}

TEST_F(AutotuneTest, AStarterWithoutKnobsIsSubmittedOnceAndTheLogSaysSo) {
  auto r = run({"--num-iterations", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto e = read_json(episode() / "episode.json");
  EXPECT_EQ(e["rounds"]["used"], 1);
  EXPECT_EQ(e["final"]["correct_heldout"], true);
  std::string log = read_file(episode() / "agent.log");
  EXPECT_NE(log.find("solution.cpp declares no knobs"), std::string::npos) << log;
}

TEST_F(AutotuneTest, AMalformedKnobLineIsLoggedWithItsLineAndTheStarterSubmittedOnce) {
  fs::path bad = runs_.parent_path() / ("arena-bad-knob-" + std::to_string(getpid()) + ".cpp");
  std::ofstream(bad) << read_file(kKnobbedStarter) << "int unused = 1;  // arena-knob: 1 2\n";
  task_.replace_file("starter.cpp", bad.string());
  fs::remove(bad);
  auto r = run({"--num-iterations", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto e = read_json(episode() / "episode.json");
  EXPECT_EQ(e["rounds"]["used"], 1);
  std::string log = read_file(episode() / "agent.log");
  EXPECT_NE(log.find("solution.cpp:13: this line holds 'arena-knob:' but is not a knob"), std::string::npos)
      << log;
}

}  // namespace
}  // namespace arena
