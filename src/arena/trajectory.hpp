// The trajectory of an episode: one record per round (time, the solution's hash, the verdict in
// brief, the feedback the agent got), appended to trajectory.jsonl as each round ends. A round
// is an `eval` (judged) or a `profile` (run under the profiler, not judged: it is never correct,
// never the best, never the final solution, and no failure of its counts as a repeated one).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "judge/verdict.hpp"

namespace arena {

struct RoundRecord {
  int round = 0;     // 1-based
  std::string kind = "eval";  // "eval" or "profile"
  std::string time;  // UTC, ISO 8601
  double seconds_into_episode = 0;
  std::string file;      // the name the agent gave
  std::string snapshot;  // relative to the episode directory
  std::string sha256;
  bool compiled = false;
  bool correct_visible = false;
  std::optional<double> speedup;  // geomean over the visible shapes; nullopt when none counted
  bool speedup_voided = false;
  std::string failure_class;    // "" when correct
  std::string failure_message;  // the first failure in a sentence ("" when correct)
  int shapes_passed = 0, shapes_total = 0;
  double judge_seconds = 0;
  std::string feedback;  // what arena-tool printed for the agent
};

// The brief of a round's verdict (everything but time, file, snapshot and feedback).
RoundRecord summarize_verdict(const Verdict& v);

nlohmann::json round_to_json(const RoundRecord& r);
RoundRecord round_from_json(const nlohmann::json& j);

// Appends one line to trajectory.jsonl (flushed, so a crash loses no finished round).
void append_round(const std::filesystem::path& trajectory, const RoundRecord& r);
std::vector<RoundRecord> read_trajectory(const std::filesystem::path& trajectory);

// The round with the best visible result: correct, highest counted speedup (earliest on ties);
// nullopt when no round was correct.
std::optional<int> best_round(const std::vector<RoundRecord>& rounds);

// "correct, 1.83x" / "wrong_values: …": one line about a round, for progress and status.
std::string round_brief(const RoundRecord& r);

// Whether the round was judged (an `eval`), not only profiled.
inline bool judged(const RoundRecord& r) { return r.kind == "eval"; }

// UTC now as "2025-01-31T12:00:00Z".
std::string utc_now_iso();

}  // namespace arena
