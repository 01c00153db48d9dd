// Test helper: runs the real `arena` binary and reads back its verdict.
#pragma once

#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/subprocess.hpp"

namespace arena::testing {

struct ArenaRun {
  int exit_code = -1;
  std::string output;     // stdout and stderr
  nlohmann::json verdict;  // when --json was written
};

inline std::string source_path(const std::string& relative) { return std::string(ARENA_SOURCE_DIR) + "/" + relative; }

inline std::string broken(const std::string& name) {
  return std::string(ARENA_TEST_DATA) + "/broken/cpu/" + name + ".cpp";
}

// A CPU solution of the red-team set (tests/redteam/cpu): a cheat of one class of EXPLOITS.md.
inline std::string redteam(const std::string& name) { return source_path("tests/redteam/cpu/" + name + ".cpp"); }

// Runs `arena ARGS`; with `with_json`, adds --json FILE and parses it.
inline ArenaRun run_arena(std::vector<std::string> args, bool with_json = false, double timeout_s = 900) {
  static int counter = 0;
  std::filesystem::path json = std::filesystem::temp_directory_path() /
                               ("arena-verdict-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + ".json");
  args.insert(args.begin(), ARENA_BIN);
  if (with_json) {
    args.push_back("--json");
    args.push_back(json.string());
  }
  ProcessResult p = run_process(args, timeout_s);
  ArenaRun r;
  r.exit_code = p.exit_code;
  r.output = p.output;
  if (with_json && std::filesystem::exists(json)) {
    std::ifstream in(json);
    r.verdict = nlohmann::json::parse(in);
    std::filesystem::remove(json);
  }
  return r;
}

// An editable copy of tasks/cpu/vector_add_f32 under a tasks root of its own, removed at the end.
class TaskCopy {
 public:
  TaskCopy() {
    static int counter = 0;
    root_ = std::filesystem::temp_directory_path() /
            ("arena-task-copy-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
    dir_ = root_ / "cpu" / "vector_add_f32";
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(dir_);
    for (const auto& f : std::filesystem::directory_iterator(source_path("tasks/cpu/vector_add_f32")))
      std::filesystem::copy(f.path(), dir_ / f.path().filename());
    // Held-out rules capped at the largest visible shape: `tasks check` judges the starter at the
    // largest legal shape too, and the task's own (768 MiB) makes each check slow.
    edit_yaml("n: {min: 1, max: 67108864}", "n: {min: 1, max: 16777216}");
    edit_yaml("    - {n: 33554432}\n    - {n: 50331648}\n", "    - {n: 12345679}\n");
  }
  ~TaskCopy() { std::filesystem::remove_all(root_); }
  TaskCopy(const TaskCopy&) = delete;
  TaskCopy& operator=(const TaskCopy&) = delete;

  // Replaces the first `from` in task.yaml with `to`; the test fails if `from` is not there.
  TaskCopy& edit_yaml(const std::string& from, const std::string& to) {
    std::string yaml = read_file(dir_ / "task.yaml");
    auto at = yaml.find(from);
    EXPECT_NE(at, std::string::npos) << "task.yaml has no '" << from << "'";
    if (at != std::string::npos) yaml.replace(at, from.size(), to);
    std::ofstream(dir_ / "task.yaml") << yaml;
    return *this;
  }
  TaskCopy& replace_file(const std::string& name, const std::string& source) {
    std::filesystem::copy_file(source, dir_ / name, std::filesystem::copy_options::overwrite_existing);
    return *this;
  }
  std::string root() const { return root_.string(); }  // for --tasks-dir
  std::string dir() const { return dir_.string(); }    // for --task

 private:
  std::filesystem::path root_;
  std::filesystem::path dir_;
};

}  // namespace arena::testing
