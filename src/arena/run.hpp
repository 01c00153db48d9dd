// A run: every episode of a config (tasks x repeats) in one run directory, run.yaml first and
// results.json after each episode; a resumed run skips the episodes that have episode.json.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "agents/agent.hpp"
#include "arena/episode_result.hpp"
#include "arena/run_config.hpp"
#include "core/task.hpp"
#include "judge/backend.hpp"

namespace arena {

struct RunSetup {
  RunConfig config;
  std::filesystem::path dir;  // the run directory
  bool resume = false;
  Agent* agent = nullptr;
  std::function<std::unique_ptr<Backend>(const Task&)> backend_for;
  std::string prompt_template;
  std::string prompt_template_name;
  std::filesystem::path arena_tool;
  std::function<void(const std::string&)> progress;
  std::function<bool()> interrupted;
};

struct RunOutcome {
  std::vector<EpisodeResult> episodes;  // finished ones, in config order (resumed ones included)
  int skipped = 0;                      // already finished before a resume
  bool interrupted = false;
};

// "20250131T120000Z-reference": a new run's directory name.
std::string new_run_id(const std::string& agent);

RunOutcome run_all(const RunSetup& s);

// results.json: the config, the summary and every episode.
void write_results(const std::filesystem::path& file, const RunConfig& c,
                   const std::vector<EpisodeResult>& episodes);

}  // namespace arena
