// What one episode came to (episode.json): the agent's end, the rounds in figures, and the final
// solution's judging on visible and held-out shapes.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "arena/trajectory.hpp"
#include "judge/verdict.hpp"

namespace arena {

struct EpisodeResult {
  std::string name;  // the episode's folder
  std::string task;
  int repeat = 1;
  std::string agent;
  // improved (final correct on visible and held-out and faster than the baseline) | no_gain
  // (anything else the agent produced) | infra_error (the harness failed: counted, never dropped)
  std::string outcome = "no_gain";
  std::string infra_error;
  std::optional<int> agent_exit_code;
  int agent_signal = 0;
  bool time_limit_hit = false;
  double seconds = 0;
  nlohmann::json usage = nullptr;
  std::string sandbox = "none";  // what the agent ran in: bwrap | none (built-in agents: none)
  bool agent_gpu = false;        // the GPU device nodes were visible to the agent

  int rounds_limit = 0, rounds_used = 0, rounds_refused = 0;
  std::optional<int> first_correct_round, best_round;
  int repeated_failures = 0;        // rounds failing with the class and message of an earlier round
  int identical_resubmissions = 0;  // rounds submitting a solution identical to an earlier round's

  std::string final_mode = "last";  // last | best
  std::optional<int>
      final_round;  // the round whose snapshot was judged; nullopt: the workspace file
  std::string final_sha256;
  std::string final_seed;  // the final judging's secret seed, recorded after the fact
  bool compiled = false;
  std::optional<bool> correct_visible, correct_heldout;
  std::optional<double> speedup;  // geomean over visible shapes; nullopt when none counted
  std::optional<double> speedup_heldout;
  // The visible geomean's uncertainty, log scale (Verdict::geomean_speedup_uncertainty).
  std::optional<double> speedup_uncertainty;
  bool speedup_voided = false;
  std::string failure_class;  // of the final verdict; "" when correct
  double score = 0;           // the AgentKernelArena score (aka_score)

  bool correct() const {
    return correct_visible.value_or(false) && correct_heldout.value_or(false);
  }
};

// Rounds to first correct and to best, repeated failures, identical resubmissions.
void add_round_figures(EpisodeResult& r, const std::vector<RoundRecord>& rounds);
// The final verdict's figures and the score.
void add_final_verdict(EpisodeResult& r, const Verdict& v);

// AgentKernelArena's per-task score, as AMD-AGI/AgentKernelArena src/score.py defines it: 0 when
// the kernel does not compile, 20 when it compiles, +100 when it is also correct, and then
// +100 x speedup (baseline time / optimized time, whatever its value; 0 when the comparison is
// not valid — here: voided by a flag, or not measured). A correct kernel as fast as the baseline
// thus scores 220.
double aka_score(bool compiled, bool correct, std::optional<double> speedup);

nlohmann::json episode_to_json(const EpisodeResult& r);
EpisodeResult episode_from_json(const nlohmann::json& j);

}  // namespace arena
