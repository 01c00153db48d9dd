#include "agents/autotune_agent.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "agents/knob_search.hpp"
#include "agents/knobs.hpp"
#include "core/error.hpp"
#include "core/subprocess.hpp"

namespace arena {
namespace {

using Setting = KnobSearch::Setting;

std::map<std::string, std::string> knob_values(const std::vector<Knob>& knobs, const Setting& s) {
  std::map<std::string, std::string> values;
  for (size_t i = 0; i < knobs.size(); ++i) values[knobs[i].name] = knobs[i].candidates[s[i]];
  return values;
}

Setting declared_setting(const std::vector<Knob>& knobs) {
  Setting s;
  for (const auto& k : knobs)
    s.push_back(static_cast<size_t>(
        std::find(k.candidates.begin(), k.candidates.end(), k.value) - k.candidates.begin()));
  return s;
}

// The round's geomean speedup on the visible shapes when it was correct (and counted).
std::optional<double> correct_speedup(const tool::Reply& r) {
  if (r.exit_code != tool::kExitCorrect) return std::nullopt;
  const auto& summary = r.json.value("verdict", nlohmann::json::object()).value("summary", nlohmann::json::object());
  auto it = summary.find("geomean_speedup_visible");
  if (it == summary.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

std::string round_outcome(const tool::Reply& r) {
  if (auto s = correct_speedup(r)) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "correct, %.3fx", *s);
    return buf;
  }
  const auto& summary = r.json.value("verdict", nlohmann::json::object()).value("summary", nlohmann::json::object());
  auto fc = summary.find("failure_class");
  if (fc != summary.end() && fc->is_string()) return fc->get<std::string>();
  return r.exit_code == tool::kExitCorrect ? "correct, no speedup counted" : "not correct";
}

// Submits the starter as it is, once (no knobs to search).
void submit_once(const AgentContext& ctx, std::ofstream& log, const std::string& source) {
  tool::Reply r = ctx.submit(ctx.solution_file, source);
  log << "autotune: submitted " << ctx.solution_file << " as it is: " << round_outcome(r) << "\n";
}

}  // namespace

AgentOutcome AutotuneAgent::run(const AgentContext& ctx) {
  const double start = now_seconds();
  std::ofstream log(ctx.log_file, std::ios::app);
  AgentOutcome out;
  out.exit_code = 0;
  const std::filesystem::path file = ctx.workspace / ctx.solution_file;
  const std::string source = read_file(file);

  std::vector<Knob> knobs;
  try {
    knobs = parse_knobs(source, ctx.solution_file);
  } catch (const InputError& e) {
    log << "autotune: " << e.what() << "; nothing to search\n";
    submit_once(ctx, log, source);
    return out;
  }
  if (knobs.empty()) {
    log << "autotune: " << ctx.solution_file << " declares no knobs (no line with '"
        << kKnobMarker << "'): nothing to search\n";
    submit_once(ctx, log, source);
    return out;
  }

  // Under --final last, one round stays in hand to submit the best setting again last.
  const int reserve = ctx.final_mode == "last" && ctx.rounds >= 2 ? 1 : 0;
  const int search_rounds = ctx.rounds - reserve;
  std::vector<size_t> sizes;
  sizes.reserve(knobs.size());
  for (const auto& k : knobs) sizes.push_back(k.candidates.size());
  KnobSearch search(sizes, declared_setting(knobs), search_rounds);
  log << "autotune: " << knobs.size() << " knob(s) in " << ctx.solution_file << " ("
      << knob_setting_text(knobs, {}) << "), " << search.grid_size() << " setting(s); "
      << (search.exhaustive() ? "trying every one" : "coordinate descent from the declared values")
      << " in up to " << search_rounds << " round(s)"
      << (reserve ? ", and one to submit the best again last (--final last)" : "") << "\n";

  int used = 0;
  double longest_round = 0;
  std::optional<Setting> last;
  auto out_of_time = [&] { return now_seconds() - start + longest_round > ctx.time_limit_s; };
  while (used < search_rounds) {
    if (ctx.interrupted && ctx.interrupted()) {
      out.interrupted = true;
      return out;
    }
    if (out_of_time()) {
      log << "autotune: stopping: another round would pass the time limit\n";
      break;
    }
    std::optional<Setting> s = search.next();
    if (!s) {
      log << "autotune: the search is done (" << (search.exhaustive() ? "every setting tried" : "a whole pass found nothing better") << ")\n";
      break;
    }
    const auto values = knob_values(knobs, *s);
    const std::string candidate = set_knobs(source, ctx.solution_file, values);
    write_file_atomic(file, candidate);
    const double t0 = now_seconds();
    tool::Reply r = ctx.submit(ctx.solution_file, candidate);
    longest_round = std::max(longest_round, now_seconds() - t0);
    if (r.exit_code == tool::kExitBudgetExhausted) break;
    if (r.exit_code == tool::kExitInternal) {
      log << "autotune: " << knob_setting_text(knobs, values) << ": the harness failed (" << r.text
          << "); the round was not counted, moving on\n";
      search.report(*s, std::nullopt);
      continue;
    }
    ++used;
    last = s;
    search.report(*s, correct_speedup(r));
    log << "autotune: round " << r.json.value("round", used) << ": " << knob_setting_text(knobs, values)
        << ": " << round_outcome(r) << "\n";
  }

  std::optional<Setting> best = search.best();
  if (!best) {
    write_file_atomic(file, source);
    log << "autotune: no setting was correct; " << ctx.solution_file << " is left as declared\n";
    return out;
  }
  const auto values = knob_values(knobs, *best);
  const std::string best_source = set_knobs(source, ctx.solution_file, values);
  write_file_atomic(file, best_source);
  char speedup[32];
  std::snprintf(speedup, sizeof speedup, "%.3fx", *search.best_speedup());
  log << "autotune: best setting " << knob_setting_text(knobs, values) << " (" << speedup
      << "), left in " << ctx.solution_file << "\n";
  if (ctx.final_mode == "last" && last != best && used < ctx.rounds && !out_of_time() &&
      !(ctx.interrupted && ctx.interrupted())) {
    tool::Reply r = ctx.submit(ctx.solution_file, best_source);
    log << "autotune: submitted the best setting again as the last round (--final last): "
        << round_outcome(r) << "\n";
  }
  return out;
}

}  // namespace arena
