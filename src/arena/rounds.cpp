#include "arena/rounds.hpp"

#include <cstdio>

#include "core/error.hpp"
#include "core/json_text.hpp"
#include "core/sha256.hpp"
#include "core/subprocess.hpp"
#include "judge/judge.hpp"
#include "judge/profile_run.hpp"
#include "judge/random.hpp"
#include "judge/sanitizer_log.hpp"
#include "judge/shape_selection.hpp"
#include "judge/verdict_json.hpp"
#include "report/table.hpp"
#include "report/profile_table.hpp"
#include "report/verdict_table.hpp"

namespace arena {
namespace {

std::string round_file_name(int round, const std::string& solution_file) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "round-%03d", round);
  return buf + std::filesystem::path(solution_file).extension().string();
}

}  // namespace

std::string Rounds::status_line() const {
  std::string s = "rounds: " + std::to_string(budget_.used()) + " of " +
                  std::to_string(budget_.limit()) + " used, " + std::to_string(budget_.left()) +
                  " left";
  if (auto best = best_round(records_))
    s += "; best so far: round " + std::to_string(*best) + " (" + round_brief(records_[*best - 1]) +
         ")";
  else
    s += "; no correct round yet";
  return s;
}

tool::Reply Rounds::refusal() const {
  std::string text = "arena-tool: round " + std::to_string(budget_.limit() + 1) +
                     " refused: the budget is " + std::to_string(budget_.limit()) +
                     " rounds and all are used. Your rounds are recorded; " +
                     "the episode's final solution is judged when you stop. Stop now.\n";
  return {tool::kExitBudgetExhausted,
          text,
          {{"error", "budget_exhausted"},
           {"rounds_used", budget_.used()},
           {"rounds_limit", budget_.limit()}}};
}

tool::Reply Rounds::not_counted(const std::filesystem::path& snapshot, const std::string& verb,
                                const std::exception& e) {
  budget_.give_back();
  std::error_code ec;
  std::filesystem::remove(snapshot, ec);
  return {tool::kExitInternal,
          "arena-tool: the harness failed to " + verb + " this round: " + e.what() +
              " (the round was not counted)\n",
          {{"error", "internal"}, {"message", e.what()}}};
}

const RoundRecord& Rounds::record(RoundRecord r, const std::string& body) {
  r.time = utc_now_iso();
  r.seconds_into_episode = now_seconds() - setup_.start_seconds;
  records_.push_back(r);
  r.feedback = "round " + std::to_string(r.round) + " of " + std::to_string(budget_.limit()) +
               (r.kind == "eval" ? "" : " (" + r.kind + ")") + "\n" + body + status_line() + "\n";
  records_.back().feedback = r.feedback;
  append_round(setup_.paths.trajectory, records_.back());
  if (setup_.on_round) setup_.on_round(records_.back(), budget_.limit());
  return records_.back();
}

tool::Reply Rounds::eval(const std::string& file, const std::string& source) {
  std::lock_guard lock(mutex_);
  if (!budget_.take()) return refusal();
  const int round = budget_.used();
  std::string snapshot_name = round_file_name(round, setup_.solution_file);
  std::filesystem::path snapshot = setup_.paths.snapshots / snapshot_name;
  Verdict v;
  try {
    write_file_atomic(snapshot, source);
    JudgeOptions jo;
    jo.seed = secret_seed();
    jo.shapes = select_shapes(*setup_.task, "visible", jo.seed);
    jo.stopping.max_seconds = setup_.max_time_s;
    jo.runners = &runners_;
    v = judge_solution(*setup_.task, *setup_.backend, file, source, jo);
  } catch (const std::exception& e) {
    return not_counted(snapshot, "judge", e);
  }
  nlohmann::json verdict = verdict_to_json(v);
  write_file_atomic(setup_.paths.verdicts / (snapshot.stem().string() + ".json"),
                    json_text(verdict, 2) + "\n");

  RoundRecord summary = summarize_verdict(v);
  summary.round = round;
  summary.file = file;
  summary.snapshot = "snapshots/" + snapshot_name;
  const RoundRecord& r = record(summary, render_verdict(v));

  verdict.erase("seed");  // inputs of a round derive from it; the agent has no use for it
  nlohmann::json json = {{"round", round},
                         {"rounds_used", budget_.used()},
                         {"rounds_left", budget_.left()},
                         {"rounds_limit", budget_.limit()},
                         {"verdict", verdict}};
  return {v.exit_code() == 0 ? tool::kExitCorrect : tool::kExitNotCorrect, r.feedback, json};
}

tool::Reply Rounds::profile(const std::string& file, const std::string& source) {
  std::lock_guard lock(mutex_);
  if (std::string why = setup_.backend->profiler_unavailable(); !why.empty())
    return {tool::kExitUsage,
            "arena-tool: profile is not available here: " + why + " (no round was taken)\n",
            {{"error", "no_profiler"}, {"message", why}}};
  if (!budget_.take()) return refusal();
  const int round = budget_.used();
  std::string snapshot_name = round_file_name(round, setup_.solution_file);
  std::filesystem::path snapshot = setup_.paths.snapshots / snapshot_name;
  RoundRecord r;
  r.round = round;
  r.kind = "profile";
  r.file = file;
  r.snapshot = "snapshots/" + snapshot_name;
  r.sha256 = sha256_hex(source);
  std::string body;
  nlohmann::json json;
  const double start = now_seconds();
  try {
    write_file_atomic(snapshot, source);
    CompileResult c = setup_.backend->compile(*setup_.task, source, setup_.task->libraries);
    r.compiled = c.ok;
    if (!c.ok) {
      r.failure_class = "compile_error";
      r.failure_message = cut_report(c.log, 300);
      body = "the solution does not compile, so it was not profiled:\n" + cut_report(c.log) + "\n";
      json = {{"compiled", false}, {"compile_log", cut_report(c.log)}};
    } else {
      // Generous: ncu replays every kernel once per group of metrics.
      ProfileResult p = run_profile(*setup_.task, *setup_.backend, c.library, secret_seed(), 300);
      if (!p.ok) r.failure_message = cut_report(p.error, 300);
      body = render_profile(p);
      json = {{"compiled", true}, {"profile", profile_to_json(p)}};
      write_file_atomic(setup_.paths.verdicts / (snapshot.stem().string() + ".profile.json"),
                        json_text(json, 2) + "\n");
    }
  } catch (const std::exception& e) {
    return not_counted(snapshot, "profile", e);
  }
  r.judge_seconds = now_seconds() - start;
  const RoundRecord& done = record(r, body);
  json["round"] = round;
  json["rounds_used"] = budget_.used();
  json["rounds_left"] = budget_.left();
  json["rounds_limit"] = budget_.limit();
  bool ok = done.compiled && done.failure_message.empty();
  return {ok ? tool::kExitCorrect : tool::kExitNotCorrect, done.feedback, json};
}

tool::Reply Rounds::status() {
  std::lock_guard lock(mutex_);
  nlohmann::json json = {{"rounds_used", budget_.used()},
                         {"rounds_left", budget_.left()},
                         {"rounds_limit", budget_.limit()},
                         {"best_round", nullptr}};
  if (auto best = best_round(records_)) {
    json["best_round"] = round_to_json(records_[*best - 1]);
    json["best_round"].erase("feedback");
  }
  return {tool::kExitCorrect, status_line() + "\n", json};
}

tool::Reply Rounds::handle(const nlohmann::json& request) {
  std::string command = request.value("command", "");
  if (command == "status") return status();
  if (command != "eval" && command != "profile")
    return {tool::kExitUsage,
            "arena-tool: unknown command '" + command + "' (eval, profile or status)\n",
            {{"error", "bad_request"}}};
  auto run = [&](const std::string& file, const std::string& source) {
    return command == "eval" ? eval(file, source) : profile(file, source);
  };
  if (request.contains("source")) return run(request.value("file", setup_.solution_file), request["source"]);
  std::filesystem::path file = setup_.paths.workspace / setup_.solution_file;
  std::string source;
  try {
    source = read_file(file);
  } catch (const std::exception&) {
    return {tool::kExitUsage,
            "arena-tool: the workspace's " + setup_.solution_file + " cannot be read\n",
            {{"error", "no_file"}}};
  }
  return run(setup_.solution_file, source);
}

std::vector<RoundRecord> Rounds::records() const {
  std::lock_guard lock(mutex_);
  return records_;
}

int Rounds::refused() const {
  std::lock_guard lock(mutex_);
  return budget_.refused();
}

}  // namespace arena
