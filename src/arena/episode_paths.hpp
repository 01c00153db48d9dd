// Where everything of one episode lives, inside its run directory (docs/episodes.md).
#pragma once

#include <filesystem>
#include <string>

namespace arena {

struct EpisodePaths {
  explicit EpisodePaths(std::filesystem::path episode_dir);
  std::filesystem::path dir;
  std::filesystem::path workspace;      // what the agent sees
  std::filesystem::path bin;            // arena-tool, put first on the agent's PATH
  std::filesystem::path snapshots;      // the solution as submitted, one file per round
  std::filesystem::path verdicts;       // each round's verdict JSON
  std::filesystem::path trajectory;     // trajectory.jsonl
  std::filesystem::path agent_log;      // the agent's stdout and stderr
  std::filesystem::path final_verdict;  // final_verdict.json
  std::filesystem::path result;  // episode.json: written last, atomically; its presence = finished
};

// "cpu-vector_add_f32-r1": the episode's folder name for a task and a repeat (1-based).
std::string episode_name(const std::string& task_id, int repeat);

}  // namespace arena
