#include "arena/episode_result.hpp"

#include <cmath>
#include <set>
#include <utility>

namespace arena {
namespace {

template <typename T>
nlohmann::json opt(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

template <typename T>
std::optional<T> get_opt(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j[key].is_null()) return std::nullopt;
  return j[key].get<T>();
}

}  // namespace

double aka_score(bool compiled, bool correct, std::optional<double> speedup) {
  if (!compiled) return 0;
  if (!correct) return 20;
  return 120 + (speedup && *speedup > 0 ? 100 * *speedup : 0);
}

void add_round_figures(EpisodeResult& r, const std::vector<RoundRecord>& rounds) {
  std::set<std::pair<std::string, std::string>> failures;
  std::set<std::string> hashes;
  r.rounds_used = static_cast<int>(rounds.size());
  for (const auto& round : rounds) {
    if (!judged(round)) continue;
    if (round.correct_visible && !r.first_correct_round) r.first_correct_round = round.round;
    if (!round.correct_visible &&
        !failures.insert({round.failure_class, round.failure_message}).second)
      ++r.repeated_failures;
    if (!hashes.insert(round.sha256).second) ++r.identical_resubmissions;
  }
  r.best_round = best_round(rounds);
}

void add_final_verdict(EpisodeResult& r, const Verdict& v) {
  r.final_sha256 = v.solution_sha256;
  r.final_seed = std::to_string(v.seed);
  r.compiled = v.compiled();
  r.correct_visible = v.correct_on("visible");
  r.correct_heldout = v.correct_on("heldout");
  r.speedup_voided = v.speedup_voided();
  if (!r.speedup_voided) {
    r.speedup = v.geomean_speedup("visible");
    r.speedup_heldout = v.geomean_speedup("heldout");
    r.speedup_uncertainty = v.geomean_speedup_uncertainty("visible");
  }
  FailureClass c = v.failure_class();
  r.failure_class = c == FailureClass::kNone ? "" : std::string(failure_class_name(c));
  r.score = aka_score(r.compiled, r.correct(), r.speedup);
  // Improved only when faster beyond the measurement's noise: a 1.003x known to +-2 % is no gain.
  // The uncertainty is on a log scale (Timing::speedup_uncertainty): the interval's lower end is
  // speedup * e^-u, which for a large speedup measured with few samples stays honest (7.6x with
  // u = 0.95 is at least 2.9x; a relative reading, 7.6 * (1 - 0.95), called it no gain).
  const double lower = r.speedup.value_or(0) * std::exp(-r.speedup_uncertainty.value_or(0));
  r.outcome = r.correct() && r.speedup.value_or(0) > 1 && lower > 1 ? "improved" : "no_gain";
}

nlohmann::json episode_to_json(const EpisodeResult& r) {
  return {{"schema", "kernelarena.episode/1"},
          {"name", r.name},
          {"task", r.task},
          {"repeat", r.repeat},
          {"agent", r.agent},
          {"outcome", r.outcome},
          {"infra_error",
           r.infra_error.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.infra_error)},
          {"agent_exit",
           {{"exit_code", opt(r.agent_exit_code)},
            {"signal", r.agent_signal},
            {"time_limit_hit", r.time_limit_hit}}},
          {"seconds", r.seconds},
          {"usage", r.usage},
          {"sandbox", r.sandbox},
          {"agent_gpu", r.agent_gpu},
          {"rounds",
           {{"limit", r.rounds_limit},
            {"used", r.rounds_used},
            {"refused", r.rounds_refused},
            {"first_correct", opt(r.first_correct_round)},
            {"best", opt(r.best_round)},
            {"repeated_failures", r.repeated_failures},
            {"identical_resubmissions", r.identical_resubmissions}}},
          {"final",
           {{"mode", r.final_mode},
            {"round", opt(r.final_round)},
            {"sha256", r.final_sha256},
            {"seed", r.final_seed},
            {"compiled", r.compiled},
            {"correct_visible", opt(r.correct_visible)},
            {"correct_heldout", opt(r.correct_heldout)},
            {"speedup", opt(r.speedup)},
            {"speedup_heldout", opt(r.speedup_heldout)},
            {"speedup_uncertainty", opt(r.speedup_uncertainty)},
            {"speedup_voided", r.speedup_voided},
            {"failure_class",
             r.failure_class.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.failure_class)},
            {"score", r.score}}}};
}

EpisodeResult episode_from_json(const nlohmann::json& j) {
  EpisodeResult r;
  r.name = j.at("name");
  r.task = j.at("task");
  r.repeat = j.at("repeat");
  r.agent = j.value("agent", "");
  r.outcome = j.at("outcome");
  if (j.contains("infra_error") && j["infra_error"].is_string()) r.infra_error = j["infra_error"];
  const auto& a = j.at("agent_exit");
  r.agent_exit_code = get_opt<int>(a, "exit_code");
  r.agent_signal = a.value("signal", 0);
  r.time_limit_hit = a.value("time_limit_hit", false);
  r.seconds = j.value("seconds", 0.0);
  r.usage = j.value("usage", nlohmann::json(nullptr));
  r.sandbox = j.value("sandbox", "none");
  r.agent_gpu = j.value("agent_gpu", false);
  const auto& rd = j.at("rounds");
  r.rounds_limit = rd.at("limit");
  r.rounds_used = rd.at("used");
  r.rounds_refused = rd.value("refused", 0);
  r.first_correct_round = get_opt<int>(rd, "first_correct");
  r.best_round = get_opt<int>(rd, "best");
  r.repeated_failures = rd.value("repeated_failures", 0);
  r.identical_resubmissions = rd.value("identical_resubmissions", 0);
  const auto& f = j.at("final");
  r.final_mode = f.value("mode", "last");
  r.final_round = get_opt<int>(f, "round");
  r.final_sha256 = f.value("sha256", "");
  r.final_seed = f.value("seed", "");
  r.compiled = f.value("compiled", false);
  r.correct_visible = get_opt<bool>(f, "correct_visible");
  r.correct_heldout = get_opt<bool>(f, "correct_heldout");
  r.speedup = get_opt<double>(f, "speedup");
  r.speedup_heldout = get_opt<double>(f, "speedup_heldout");
  r.speedup_uncertainty = get_opt<double>(f, "speedup_uncertainty");
  r.speedup_voided = f.value("speedup_voided", false);
  if (f.contains("failure_class") && f["failure_class"].is_string())
    r.failure_class = f["failure_class"];
  r.score = f.value("score", 0.0);
  return r;
}

}  // namespace arena
