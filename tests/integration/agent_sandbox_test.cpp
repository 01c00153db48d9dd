// The bubblewrap sandbox of external agents, end to end through `arena run`: a nosy fake agent
// looks for the tasks directory, the runs directory, other episodes, $HOME and the GPU device
// nodes, and still takes its round; the time limit leaves nothing of a sandbox behind; --sandbox
// none and --agent-gpu are recorded. Tests that need bwrap skip, saying why, where it cannot
// build a sandbox.

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "agents/agent_sandbox.hpp"
#include "run_fixture.hpp"
#include "scoped_env.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using testing::agent_config;
using testing::read_json;

// The snoop agent's seen.txt: "what: seen" per line.
std::map<std::string, std::string> seen(const fs::path& workspace) {
  std::map<std::string, std::string> out;
  std::ifstream in(workspace / "seen.txt");
  for (std::string line; std::getline(in, line);) {
    auto colon = line.find(": ");
    if (colon != std::string::npos) out[line.substr(0, colon)] = line.substr(colon + 2);
  }
  return out;
}

// The names of a directory listing as the snoop agent wrote it.
std::set<std::string> names(const std::string& listing) {
  std::set<std::string> out;
  std::istringstream in(listing);
  for (std::string n; in >> n;) out.insert(n);
  return out;
}

// A $HOME of the test's own with a secret in it, and the tasks directory for the snoop agent.
class AgentSandboxTest : public testing::RunFixture {
 protected:
  void SetUp() override {
    RunFixture::SetUp();
    fs::path home = base_ / "home";
    fs::create_directories(home);
    std::ofstream(home / "secret.txt") << "the user's secret\n";
    home_.emplace("HOME", home.c_str());
    snoop_tasks_.emplace("SNOOP_TASKS_DIR", task_.root().c_str());
  }
  // Put back as the test ends: later tests of this binary see the real $HOME.
  std::optional<testing::ScopedEnv> home_, snoop_tasks_;
  // Skips the test where bwrap cannot build a sandbox.
  bool bwrap_works() {
    why_not_ = probe_bwrap(true);
    return why_not_.empty();
  }
  std::string why_not_;
};

#define REQUIRE_BWRAP() \
  if (!bwrap_works()) GTEST_SKIP() << "SKIPPED: bwrap cannot build a sandbox here: " << why_not_

TEST_F(AgentSandboxTest, AgentSeesNeitherTasksNorRunsNorOtherEpisodesNorHomeAndItsRoundWorks) {
  REQUIRE_BWRAP();
  auto r = run({"--agent", agent_config("snoop_agent"), "--num-iterations", "1", "--repeats", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (int repeat : {1, 2}) {
    fs::path ep = episode(repeat);
    auto s = seen(ep / "workspace");
    ASSERT_FALSE(s.empty()) << read_file(ep / "agent.log");
    // Of its episode: its workspace and arena-tool; none of the records (agent.log, trajectory,
    // snapshots, verdicts).
    EXPECT_EQ(names(s["episode"]), (std::set<std::string>{"bin", "workspace"})) << s["episode"];
    EXPECT_EQ(names(s["episodes"]), std::set<std::string>{ep.filename().string()})
        << "other episodes are visible: " << s["episodes"];
    EXPECT_EQ(names(s["run"]), std::set<std::string>{"episodes"}) << s["run"];
    EXPECT_EQ(names(s["runs"]), std::set<std::string>{run_dir().filename().string()}) << s["runs"];
    EXPECT_NE(s["run.yaml"].find("No such file"), std::string::npos) << s["run.yaml"];
    EXPECT_NE(s["tasks"].find("No such file"), std::string::npos) << s["tasks"];
    EXPECT_NE(s["task.yaml"].find("No such file"), std::string::npos) << s["task.yaml"];
    EXPECT_EQ(s["home"], "") << "$HOME is not private";
    EXPECT_NE(s["secret"].find("No such file"), std::string::npos) << s["secret"];

    auto e = read_json(ep / "episode.json");
    EXPECT_EQ(e["sandbox"], "bwrap");
    EXPECT_EQ(e["agent_gpu"], false);
    EXPECT_EQ(e["rounds"]["used"], 1) << read_file(ep / "agent.log");
    EXPECT_EQ(e["final"]["correct_visible"], true);
  }
}

TEST_F(AgentSandboxTest, DevHoldsOnlyTheMinimalSetWithoutGpuNodes) {
  REQUIRE_BWRAP();
  auto r = run({"--agent", agent_config("snoop_agent"), "--num-iterations", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto dev = names(seen(episode() / "workspace")["dev"]);
  const std::set<std::string> minimal = {"console", "core",   "fd",     "full",    "mqueue",
                                         "null",    "ptmx",   "pts",    "random",  "shm",
                                         "stderr",  "stdin",  "stdout", "tty",     "urandom",
                                         "zero"};
  ASSERT_FALSE(dev.empty());
  for (const auto& d : dev) EXPECT_TRUE(minimal.count(d)) << "/dev/" << d << " is visible";
}

TEST_F(AgentSandboxTest, AgentGpuIsRecordedAndShowsTheDeviceNodes) {
  REQUIRE_BWRAP();
  auto r = run({"--agent", agent_config("snoop_agent"), "--num-iterations", "1", "--agent-gpu"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(read_file(run_dir() / "run.yaml").find("agent_gpu: true"), std::string::npos);
  auto e = read_json(episode() / "episode.json");
  EXPECT_EQ(e["sandbox"], "bwrap");
  EXPECT_EQ(e["agent_gpu"], true);
  auto dev = names(seen(episode() / "workspace")["dev"]);
  for (const auto& node : gpu_device_nodes())
    EXPECT_TRUE(dev.count(node.filename().string())) << node << " is not visible";
}

TEST_F(AgentSandboxTest, SandboxNoneIsRecordedAndTheAgentSeesWhatTheUserSees) {
  fs::path report = base_ / "report.json";
  auto r = run({"--agent", agent_config("snoop_agent"), "--num-iterations", "1", "--sandbox",
                "none", "--report", report.string()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(read_file(run_dir() / "run.yaml").find("sandbox: none"), std::string::npos);
  auto e = read_json(episode() / "episode.json");
  EXPECT_EQ(e["sandbox"], "none");
  EXPECT_EQ(e["agent_gpu"], true);
  auto j = read_json(report);
  EXPECT_EQ(j["config"]["sandbox"], "none");
  EXPECT_EQ(j["episodes"][0]["sandbox"], "none");
  // What the sandbox would have hidden, seen: the probes of the test above do see.
  auto s = seen(episode() / "workspace");
  EXPECT_TRUE(names(s["episode"]).count("agent.log")) << s["episode"];
  EXPECT_EQ(s["secret"], "the user's secret");
  EXPECT_NE(s["task.yaml"].find("name:"), std::string::npos) << s["task.yaml"];
}

TEST_F(AgentSandboxTest, TimeLimitLeavesNothingOfTheSandboxNotEvenAProcessThatLeftItsSession) {
  REQUIRE_BWRAP();
  auto r = run(
      {"--agent", agent_config("escaper_agent"), "--num-iterations", "1", "--time-limit", "1"},
      120);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  fs::path ep = episode();
  ASSERT_TRUE(fs::exists(ep / "workspace" / "started.txt")) << read_file(ep / "agent.log");
  auto e = read_json(ep / "episode.json");
  EXPECT_EQ(e["sandbox"], "bwrap");
  EXPECT_EQ(e["agent_exit"]["time_limit_hit"], true);
  EXPECT_EQ(testing::processes_in(ep / "workspace"), std::vector<int>{})
      << "processes started in the sandbox survived";
}

TEST_F(AgentSandboxTest, AConfigBindThatShowsTheTasksDirectoryIsAnInfraError) {
  REQUIRE_BWRAP();
  fs::path config = base_ / "agents" / "leaky.yaml";
  fs::create_directories(config.parent_path());
  std::ofstream(config) << "name: leaky\ncommand: [sh, -c, 'arena-tool eval', '{prompt_file}']\n"
                           "prompt_via: file\nsandbox:\n  ro_binds: [\""
                        << fs::path(task_.root()).parent_path().string() << "\"]\n";
  auto r = run({"--agent", config.string(), "--num-iterations", "1"});
  EXPECT_EQ(r.exit_code, 3) << r.output;
  auto e = read_json(episode() / "episode.json");
  EXPECT_EQ(e["outcome"], "infra_error");
  EXPECT_NE(e["infra_error"].get<std::string>().find("sandbox.ro_binds"), std::string::npos)
      << e["infra_error"];
}

}  // namespace
}  // namespace arena
