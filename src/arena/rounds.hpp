// The rounds of one episode: each `arena-tool eval` takes one round of the budget, snapshots the
// solution, judges it on the visible shapes with the real judge (the code path of `arena eval`),
// records it in the trajectory and answers with the feedback. `arena-tool profile` takes a round
// too: it snapshots and compiles the solution and runs it once under the backend's profiler
// (judge/profile_run.hpp); where the backend has none it is refused without taking one. `status`
// reports the budget and the best round so far. Thread-safe: the tool server calls it from its
// thread.
#pragma once

#include <exception>
#include <filesystem>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "arena/budget.hpp"
#include "arena/episode_paths.hpp"
#include "arena/tool_protocol.hpp"
#include "arena/trajectory.hpp"
#include "core/task.hpp"
#include "judge/backend.hpp"
#include "judge/runner_pool.hpp"

namespace arena {

struct RoundsSetup {
  const Task* task = nullptr;
  const Backend* backend = nullptr;
  EpisodePaths paths{""};
  std::string solution_file;  // the workspace's solution file name (what `eval` judges by default)
  int limit = 10;
  double max_time_s = 2;     // the judge's timing budget per shape
  double start_seconds = 0;  // now_seconds() at the episode's start
  std::function<void(const RoundRecord&, int limit)> on_round;  // progress
};

class Rounds {
 public:
  explicit Rounds(RoundsSetup setup) : setup_(std::move(setup)), budget_(setup_.limit) {}

  // One round: `source` as the agent submitted it under `file`.
  tool::Reply eval(const std::string& file, const std::string& source);
  tool::Reply profile(const std::string& file, const std::string& source);
  tool::Reply status();
  // A request of arena-tool: {"command": "eval"|"profile"|"status", "file"?, "source"?}.
  tool::Reply handle(const nlohmann::json& request);

  // After the agent is gone.
  std::vector<RoundRecord> records() const;
  int refused() const;
  // The episode's runners started ahead of need: every round's judge takes its runners from it
  // and has the next round's started; the final judging may take them too.
  RunnerPool& runners() { return runners_; }

 private:
  std::string status_line() const;  // with the mutex held
  tool::Reply refusal() const;      // the budget is used up; with the mutex held
  // The harness failed (`verb`: judge, profile): the round is given back, its snapshot removed.
  tool::Reply not_counted(const std::filesystem::path& snapshot, const std::string& verb,
                          const std::exception& e);
  // Records a finished round (trajectory, progress) and returns its feedback; mutex held.
  const RoundRecord& record(RoundRecord r, const std::string& body);

  RoundsSetup setup_;
  RunnerPool runners_;
  mutable std::mutex mutex_;
  RoundBudget budget_;
  std::vector<RoundRecord> records_;
};

}  // namespace arena
