// Test helper for `arena run`: a runs directory of its own and a vector_add task whose held-out
// shapes stay small, so a final judging takes seconds; the run and episode directories it made.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "arena_cli.hpp"

namespace arena::testing {

inline nlohmann::json read_json(const std::filesystem::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

// tests/data/agents/NAME.yaml: a fake external agent's config.
inline std::string agent_config(const std::string& name) {
  return std::string(ARENA_TEST_DATA) + "/agents/" + name + ".yaml";
}

// The processes whose working directory is `dir` or inside it (their pids, as this machine
// numbers them): what an agent started in its workspace and left running.
inline std::vector<int> processes_in(const std::filesystem::path& dir) {
  std::vector<int> out;
  std::string prefix = std::filesystem::weakly_canonical(dir).string();
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
    std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cwd = std::filesystem::read_symlink(e.path() / "cwd", ec).string();
    if (!ec && cwd.rfind(prefix, 0) == 0) out.push_back(std::stoi(name));
  }
  return out;
}

class RunFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    static int counter = 0;
    base_ = std::filesystem::temp_directory_path() /
            ("arena-run-test-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(base_);
    runs_ = base_ / "runs";
    task_.edit_yaml("  count: 8\n", "  count: 2\n");  // two drawn held-out shapes: a quick final judging
  }
  void TearDown() override { std::filesystem::remove_all(base_); }

  ArenaRun run(std::vector<std::string> extra, double timeout_s = 900) {
    std::vector<std::string> args = {
        "-q",         "--tasks-dir",  task_.root(), "run", "--task", "cpu/vector_add_f32",
        "--runs-dir", runs_.string(), "--max-time", "0.1"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_arena(args, false, timeout_s);
  }
  // The one run directory made so far.
  std::filesystem::path run_dir() const {
    for (const auto& e : std::filesystem::directory_iterator(runs_)) return e.path();
    return {};
  }
  std::filesystem::path episode(int repeat = 1) const {
    return run_dir() / "episodes" / ("cpu-vector_add_f32-r" + std::to_string(repeat));
  }

  std::filesystem::path base_;  // everything of the test
  std::filesystem::path runs_;  // the runs directory: only run directories in it
  TaskCopy task_;
};

}  // namespace arena::testing
