// One episode: one agent on one task, one repeat (DESIGN.md, Episodes). Prepares the workspace,
// serves arena-tool while the agent runs, judges the final solution on visible and held-out shapes
// with a fresh secret seed, and writes episode.json last, atomically.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "agents/agent.hpp"
#include "arena/episode_paths.hpp"
#include "arena/episode_result.hpp"
#include "arena/run_config.hpp"
#include "core/task.hpp"
#include "judge/backend.hpp"

namespace arena {

struct EpisodeSetup {
  const RunConfig* config = nullptr;
  const Backend* backend = nullptr;
  Agent* agent = nullptr;
  std::string prompt_template;
  std::string prompt_template_name;  // for errors
  std::filesystem::path arena_tool;  // the arena-tool executable, linked into the episode's bin/
  std::function<void(const std::string&)> progress;  // one line per round
  std::function<bool()> interrupted;
};

// The placeholders a prompt template may use, with their values for `task`.
std::map<std::string, std::string> prompt_variables(const Task& task, const RunConfig& config);

// nullopt when the user interrupted the run: the episode is left without episode.json, so a
// resumed run does it again. Every other ending, harness failures included, is a result.
std::optional<EpisodeResult> run_episode(const Task& task, int repeat, const EpisodePaths& paths,
                                         const EpisodeSetup& s);

}  // namespace arena
