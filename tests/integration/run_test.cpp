// arena run: episodes end to end on the CPU suite with the built-in agents and a fake external
// agent through the adapter path; the budget, the time limit, infra errors, resume, results.json.

#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "core/sha256.hpp"
#include "core/subprocess.hpp"
#include "run_fixture.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using testing::agent_config;
using testing::read_json;
using testing::run_arena;
using testing::source_path;

int count_lines(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) n += !line.empty();
  return n;
}

class RunTest : public testing::RunFixture {};

TEST_F(RunTest, ReferenceAgentWritesTheRunDirectory) {
  auto r = run({"--agent", "reference", "--num-iterations", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(fs::exists(run_dir() / "run.yaml"));
  fs::path ep = episode();
  std::set<std::string> workspace;
  for (const auto& f : fs::directory_iterator(ep / "workspace"))
    workspace.insert(f.path().filename().string());
  EXPECT_EQ(workspace, (std::set<std::string>{"solution.cpp", "README.md", "arena_signature.h",
                                              "shapes.yaml", "HARDWARE.md", "PROMPT.md"}));
  EXPECT_EQ(read_file(ep / "workspace" / "solution.cpp"),
            read_file(source_path("tasks/cpu/vector_add_f32/starter.cpp")));
  EXPECT_NE(read_file(ep / "workspace" / "PROMPT.md").find("3 rounds"), std::string::npos);
  EXPECT_TRUE(fs::exists(ep / "snapshots" / "round-001.cpp"));
  EXPECT_TRUE(fs::exists(ep / "verdicts" / "round-001.json"));
  EXPECT_EQ(count_lines(ep / "trajectory.jsonl"), 1);

  auto e = read_json(ep / "episode.json");
  EXPECT_EQ(e["rounds"]["used"], 1);
  EXPECT_EQ(e["rounds"]["first_correct"], 1);
  EXPECT_EQ(e["final"]["round"], 1);
  EXPECT_EQ(e["final"]["correct_visible"], true);
  EXPECT_EQ(e["final"]["correct_heldout"], true);
  EXPECT_FALSE(e["final"]["seed"].get<std::string>().empty());
  // The final judging covers held-out shapes, drawn with a seed of its own.
  auto fv = read_json(ep / "final_verdict.json");
  bool heldout = false;
  for (const auto& s : fv["shapes"]) heldout = heldout || s["set"] == "heldout";
  EXPECT_TRUE(heldout);
  EXPECT_EQ(fv["seed_given"], false);
  EXPECT_NE(r.output.find("AgentKernelArena score"), std::string::npos) << r.output;
}

TEST_F(RunTest, ResultsJsonHasTheRunMetrics) {
  fs::path report = base_ / "report.json";
  auto r = run({"--agent", "reference", "--num-iterations", "1", "--report", report.string()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto j = read_json(report);
  EXPECT_EQ(j, read_json(run_dir() / "results.json"));
  EXPECT_EQ(j["schema"], "kernelarena.results/1");
  const auto& s = j["summary"];
  for (const char* k : {"episodes", "outcomes", "compile_rate", "correct_visible_rate",
                        "correct_heldout_rate", "geomean_speedup", "fast_1", "fast_1_5", "fast_2",
                        "aka_score", "mean_rounds_to_first_correct", "mean_rounds_to_best",
                        "repeated_failures", "identical_resubmissions", "failure_classes"})
    EXPECT_TRUE(s.contains(k)) << k;
  EXPECT_EQ(s["episodes"], 1);
  EXPECT_EQ(s["compile_rate"], 1.0);
  EXPECT_EQ(s["correct_heldout_rate"], 1.0);
  // The starter against itself: correct, about 1x: AgentKernelArena's 20 + 100 + 100 x speedup.
  const auto& e = j["episodes"][0];
  EXPECT_NEAR(e["final"]["score"].get<double>(), 120 + 100 * e["final"]["speedup"].get<double>(),
              1e-6);
  EXPECT_EQ(j["config"]["num_iterations"], 1);
}

TEST_F(RunTest, ReplaySubmitsEachFileInNameOrderAndRescoresARecordedRun) {
  fs::path from = base_ / "solutions";
  fs::create_directories(from);
  fs::copy_file(source_path("examples/cpu/vector_add_f32/omp_simd.cpp"), from / "b.cpp");
  fs::copy_file(source_path("tasks/cpu/vector_add_f32/starter.cpp"), from / "a.cpp");
  fs::copy_file(source_path("tasks/cpu/vector_add_f32/starter.cpp"), from / "c.cpp");
  auto r = run(
      {"--agent", "replay", "--from", from.string(), "--num-iterations", "3", "--final", "best"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  fs::path recorded = run_dir();
  std::ifstream traj(episode() / "trajectory.jsonl");
  std::vector<std::string> hashes;
  for (std::string line; std::getline(traj, line);)
    hashes.push_back(nlohmann::json::parse(line)["sha256"]);
  ASSERT_EQ(hashes.size(), 3u);
  EXPECT_EQ(hashes[0], sha256_hex(read_file(from / "a.cpp")));
  EXPECT_EQ(hashes[1], sha256_hex(read_file(from / "b.cpp")));
  auto e = read_json(episode() / "episode.json");
  EXPECT_EQ(e["rounds"]["identical_resubmissions"], 1);  // c.cpp is a.cpp again
  EXPECT_EQ(e["final"]["mode"], "best");
  EXPECT_EQ(e["final"]["round"], e["rounds"]["best"]);

  // Replaying the recorded run re-scores its snapshots: the same solutions, round for round.
  fs::path rescored = base_ / "rescored";
  auto again = run_arena({"-q", "--tasks-dir", task_.root(), "run", "--task", "cpu/vector_add_f32",
                          "--runs-dir", rescored.string(), "--max-time", "0.1", "--agent", "replay",
                          "--from", recorded.string(), "--num-iterations", "3"});
  ASSERT_EQ(again.exit_code, 0) << again.output;
  fs::path rescored_run = fs::directory_iterator(rescored)->path();
  std::ifstream traj2(rescored_run / "episodes" / "cpu-vector_add_f32-r1" / "trajectory.jsonl");
  std::vector<std::string> hashes2;
  for (std::string line; std::getline(traj2, line);)
    hashes2.push_back(nlohmann::json::parse(line)["sha256"]);
  EXPECT_EQ(hashes2, hashes);
}

TEST_F(RunTest, FakeExternalAgentRunsThroughTheAdapterAndRoundNPlusOneIsRefused) {
  auto r = run({"--agent", agent_config("fake_agent"), "--num-iterations", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  fs::path ep = episode();
  std::string log = read_file(ep / "agent.log");
  EXPECT_NE(log.find("round 3 refused"), std::string::npos) << log;
  // No profiler on the CPU: refused, no round taken.
  EXPECT_NE(log.find("profile is not available here"), std::string::npos) << log;
  EXPECT_NE(log.find("fake_agent: profile: exit code 2"), std::string::npos) << log;
  EXPECT_NE(log.find("round past the budget: exit code 5"), std::string::npos) << log;
  EXPECT_NE(log.find("rounds: 2 of 2 used, 0 left"), std::string::npos)
      << log;  // arena-tool status
  EXPECT_EQ(count_lines(ep / "trajectory.jsonl"), 2);
  auto e = read_json(ep / "episode.json");
  EXPECT_EQ(e["rounds"]["used"], 2);
  EXPECT_EQ(e["rounds"]["refused"], 1);
  EXPECT_EQ(e["agent_exit"]["exit_code"], 0);
  EXPECT_EQ(e["usage"]["input_tokens"], 1234);
  EXPECT_EQ(e["usage"]["cost_usd"], 0.5);
  // The final solution is the last round's: the example the agent copied in.
  EXPECT_EQ(e["final"]["sha256"],
            sha256_hex(read_file(source_path("examples/cpu/vector_add_f32/omp_simd.cpp"))));
  EXPECT_EQ(e["final"]["correct_heldout"], true);
}

// Without a sandbox: the plain process-group kill (agent_sandbox_test.cpp has it in bwrap).
TEST_F(RunTest, TimeLimitKillsTheAgentsWholeProcessGroup) {
  auto r = run({"--agent", agent_config("sleeper_agent"), "--num-iterations", "1", "--time-limit",
                "1", "--sandbox", "none"},
               120);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  fs::path ep = episode();
  auto e = read_json(ep / "episode.json");
  EXPECT_EQ(e["agent_exit"]["time_limit_hit"], true);
  EXPECT_EQ(e["rounds"]["used"], 0);
  ASSERT_TRUE(fs::exists(ep / "workspace" / "child.pid")) << read_file(ep / "agent.log");
  // The `sleep 1000` ignored SIGTERM and outlived its parent's kill: nothing of it is left.
  EXPECT_EQ(testing::processes_in(ep / "workspace"), std::vector<int>{})
      << "processes started in the workspace survived";
}

TEST_F(RunTest, MissingAgentBinaryIsAnInfraErrorCountedInTheDenominators) {
  auto r = run({"--agent", agent_config("missing_agent"), "--num-iterations", "1"});
  EXPECT_EQ(r.exit_code, 3) << r.output;
  auto j = read_json(run_dir() / "results.json");
  EXPECT_EQ(j["summary"]["episodes"], 1);
  EXPECT_EQ(j["summary"]["outcomes"]["infra_error"], 1);
  EXPECT_EQ(j["summary"]["outcomes"]["no_gain"], 0);
  EXPECT_EQ(j["summary"]["compile_rate"], 0.0);
  EXPECT_NE(j["episodes"][0]["infra_error"].get<std::string>().find("/nonexistent/agent-binary"),
            std::string::npos);
}

TEST_F(RunTest, ResumeSkipsFinishedEpisodesAndLosesNone) {
  auto first = run({"--agent", "reference", "--num-iterations", "1", "--repeats", "2"});
  ASSERT_EQ(first.exit_code, 0) << first.output;
  std::string kept = read_file(episode(1) / "episode.json");
  fs::remove(episode(2) / "episode.json");  // as if the run had stopped during episode 2
  fs::remove(run_dir() / "results.json");
  auto resumed =
      run_arena({"-q", "--tasks-dir", task_.root(), "run", "--resume", run_dir().string()});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("1 episode(s) finished before the resume, kept"), std::string::npos)
      << resumed.output;
  EXPECT_EQ(read_file(episode(1) / "episode.json"), kept);
  EXPECT_TRUE(fs::exists(episode(2) / "episode.json"));
  EXPECT_TRUE(fs::exists(run_dir() / "episodes" / "cpu-vector_add_f32-r2.unfinished"));
  auto j = read_json(run_dir() / "results.json");
  EXPECT_EQ(j["summary"]["episodes"], 2);
}

TEST_F(RunTest, UnknownAgentNamesTheAgentsThatExist) {
  auto r = run({"--agent", "no-such-agent", "--num-iterations", "1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("claude-code"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("reference"), std::string::npos) << r.output;
}

// arena-tool sends the solution as JSON text: a file that is not UTF-8 is the agent's usage error
// naming the file, not an abort (nlohmann::json refuses to write invalid UTF-8).
TEST(ArenaTool, ASolutionThatIsNotUtf8IsAUsageErrorNamingTheFile) {
  const fs::path file = fs::temp_directory_path() / ("arena-tool-latin1-" + std::to_string(getpid()) + ".cpp");
  std::ofstream(file, std::ios::binary) << "// caf\xe9\nint x;\n";
  const std::string tool = (fs::path(ARENA_BIN).parent_path() / "arena-tool").string();
  ProcessResult p = run_process({tool, "eval", file.string()}, 30);
  fs::remove(file);
  EXPECT_EQ(p.exit_code, 2) << p.output;
  EXPECT_NE(p.output.find(file.string() + ": not UTF-8 text"), std::string::npos) << p.output;
}

}  // namespace
}  // namespace arena
