#include "arena/run_summary.hpp"

#include <cmath>

#include "report/table.hpp"

namespace arena {
namespace {

std::string pct(double share) {
  return format_number(100 * share, 3) + "%";
}

std::string opt_number(const std::optional<double>& v, const std::string& unit = "") {
  return v ? format_number(*v) + unit : "-";
}

std::string yes_no(const std::optional<bool>& v) {
  return !v ? "-" : *v ? "yes" : "no";
}

}  // namespace

RunSummary summarize_run(const std::vector<EpisodeResult>& episodes) {
  RunSummary s;
  s.episodes = static_cast<int>(episodes.size());
  if (episodes.empty()) return s;
  double log_sum = 0, first_sum = 0, best_sum = 0;
  int log_n = 0, first_n = 0, best_n = 0;
  for (const auto& e : episodes) {
    s.improved += e.outcome == "improved";
    s.no_gain += e.outcome == "no_gain";
    s.infra_error += e.outcome == "infra_error";
    s.compile_rate += e.compiled;
    s.correct_visible_rate += e.correct_visible.value_or(false);
    s.correct_heldout_rate += e.correct();
    if (e.correct() && e.speedup && *e.speedup > 0) {
      log_sum += std::log(*e.speedup);
      ++log_n;
    }
    double sp = e.correct() ? e.speedup.value_or(0) : 0;
    s.fast_1 += sp > 1;
    s.fast_1_5 += sp > 1.5;
    s.fast_2 += sp > 2;
    s.mean_score += e.score;
    if (e.first_correct_round) first_sum += *e.first_correct_round, ++first_n;
    if (e.best_round) best_sum += *e.best_round, ++best_n;
    s.mean_rounds_used += e.rounds_used;
    s.repeated_failures += e.repeated_failures;
    s.identical_resubmissions += e.identical_resubmissions;
    s.refused_rounds += e.rounds_refused;
    s.time_limit_hits += e.time_limit_hit;
    if (!e.failure_class.empty()) ++s.failure_classes[e.failure_class];
    if (e.outcome == "infra_error") ++s.failure_classes["infra_error"];
  }
  const double n = s.episodes;
  for (double* share : {&s.compile_rate, &s.correct_visible_rate, &s.correct_heldout_rate,
                        &s.fast_1, &s.fast_1_5, &s.fast_2, &s.mean_score, &s.mean_rounds_used})
    *share /= n;
  if (log_n) s.geomean_speedup = std::exp(log_sum / log_n);
  if (first_n) s.mean_rounds_to_first_correct = first_sum / first_n;
  if (best_n) s.mean_rounds_to_best = best_sum / best_n;
  return s;
}

nlohmann::json run_summary_to_json(const RunSummary& s) {
  auto opt = [](const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
  };
  return {{"episodes", s.episodes},
          {"outcomes",
           {{"improved", s.improved}, {"no_gain", s.no_gain}, {"infra_error", s.infra_error}}},
          {"compile_rate", s.compile_rate},
          {"correct_visible_rate", s.correct_visible_rate},
          {"correct_heldout_rate", s.correct_heldout_rate},
          {"geomean_speedup", opt(s.geomean_speedup)},
          {"fast_1", s.fast_1},
          {"fast_1_5", s.fast_1_5},
          {"fast_2", s.fast_2},
          {"aka_score", s.mean_score},
          {"mean_rounds_used", s.mean_rounds_used},
          {"mean_rounds_to_first_correct", opt(s.mean_rounds_to_first_correct)},
          {"mean_rounds_to_best", opt(s.mean_rounds_to_best)},
          {"repeated_failures", s.repeated_failures},
          {"identical_resubmissions", s.identical_resubmissions},
          {"refused_rounds", s.refused_rounds},
          {"time_limit_hits", s.time_limit_hits},
          {"failure_classes", s.failure_classes}};
}

std::string render_run(const std::vector<EpisodeResult>& episodes, const RunSummary& s) {
  Table t({"episode", "outcome", "rounds", "compiled", "visible", "held-out", "speedup", "score",
           "first ok", "best", "final"});
  for (const auto& e : episodes) {
    std::string rounds = std::to_string(e.rounds_used) + "/" + std::to_string(e.rounds_limit);
    if (e.rounds_refused) rounds += " (+" + std::to_string(e.rounds_refused) + " refused)";
    std::string final = e.final_round ? "round " + std::to_string(*e.final_round) : "-";
    if (e.outcome == "infra_error") final = e.infra_error.substr(0, 60);
    t.add_row({e.name, e.outcome, rounds, e.compiled ? "yes" : "no", yes_no(e.correct_visible),
               yes_no(e.correct_heldout), e.speedup_voided ? "voided" : opt_number(e.speedup, "x"),
               format_number(e.score, 4),
               e.first_correct_round ? std::to_string(*e.first_correct_round) : "-",
               e.best_round ? std::to_string(*e.best_round) : "-", final});
  }
  std::string out = t.render();
  out += "episodes " + std::to_string(s.episodes) + ": " + std::to_string(s.improved) +
         " improved, " + std::to_string(s.no_gain) + " no gain, " + std::to_string(s.infra_error) +
         " infra error\n";
  out += "compiled " + pct(s.compile_rate) + "  correct visible " + pct(s.correct_visible_rate) +
         "  correct held-out " + pct(s.correct_heldout_rate) + "  geomean speedup " +
         opt_number(s.geomean_speedup, "x") + "\n";
  out += "fast_1 " + pct(s.fast_1) + "  fast_1.5 " + pct(s.fast_1_5) + "  fast_2 " + pct(s.fast_2) +
         "  AgentKernelArena score " + format_number(s.mean_score, 4) + " per episode\n";
  out += "rounds: " + format_number(s.mean_rounds_used) + " used on average, to first correct " +
         opt_number(s.mean_rounds_to_first_correct) + ", to best " +
         opt_number(s.mean_rounds_to_best) + "; " + std::to_string(s.repeated_failures) +
         " repeated a failure, " + std::to_string(s.identical_resubmissions) +
         " resubmitted an identical solution, " + std::to_string(s.refused_rounds) +
         " refused past the budget\n";
  if (!s.failure_classes.empty()) {
    out += "failures:";
    for (const auto& [k, v] : s.failure_classes) out += " " + k + " " + std::to_string(v);
    out += "\n";
  }
  return out;
}

}  // namespace arena
