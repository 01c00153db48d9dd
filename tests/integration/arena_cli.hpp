// Test helper: runs the real `arena` binary and reads back its verdict.
#pragma once

#include <unistd.h>

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

// Runs `arena ARGS`; with `with_json`, adds --json FILE and parses it.
inline ArenaRun run_arena(std::vector<std::string> args, bool with_json = false, double timeout_s = 300) {
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

}  // namespace arena::testing
