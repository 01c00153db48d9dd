#include "arena/episode_paths.hpp"

namespace arena {

EpisodePaths::EpisodePaths(std::filesystem::path episode_dir)
    : dir(std::move(episode_dir)),
      workspace(dir / "workspace"),
      bin(dir / "bin"),
      snapshots(dir / "snapshots"),
      verdicts(dir / "verdicts"),
      trajectory(dir / "trajectory.jsonl"),
      agent_log(dir / "agent.log"),
      final_verdict(dir / "final_verdict.json"),
      result(dir / "episode.json") {}

std::string episode_name(const std::string& task_id, int repeat) {
  std::string name = task_id;
  for (char& c : name)
    if (c == '/') c = '-';
  return name + "-r" + std::to_string(repeat);
}

}  // namespace arena
