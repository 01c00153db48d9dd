// A run's metrics over its episodes (results.json "summary" and the terminal table). Every
// episode is in every denominator, infra errors included; they are also counted apart.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "arena/episode_result.hpp"

namespace arena {

struct RunSummary {
  int episodes = 0;
  int improved = 0, no_gain = 0, infra_error = 0;
  double compile_rate = 0;                // final solution compiled
  double correct_visible_rate = 0;        // final solution correct on the visible shapes
  double correct_heldout_rate = 0;        // ... and on the held-out shapes
  std::optional<double> geomean_speedup;  // over episodes correct on both with a counted speedup
  double fast_1 = 0, fast_1_5 = 0, fast_2 = 0;  // share correct on both AND speedup > 1, 1.5, 2
  double mean_score = 0;                        // the AgentKernelArena score, mean per episode
  std::optional<double> mean_rounds_to_first_correct;  // over episodes that got a correct round
  std::optional<double> mean_rounds_to_best;
  double mean_rounds_used = 0;
  int repeated_failures = 0;  // summed over episodes
  int identical_resubmissions = 0;
  int refused_rounds = 0;
  int time_limit_hits = 0;
  std::map<std::string, int> failure_classes;  // of the final verdicts
};

RunSummary summarize_run(const std::vector<EpisodeResult>& episodes);
nlohmann::json run_summary_to_json(const RunSummary& s);

// One row per episode, then the summary, for the terminal.
std::string render_run(const std::vector<EpisodeResult>& episodes, const RunSummary& s);

}  // namespace arena
