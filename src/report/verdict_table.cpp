#include "report/verdict_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "report/table.hpp"

namespace arena {

namespace {

// "seconds: 1.09 in the judge: prepare 0.79 (waiting for runners 0.74), timing 0.26, ...; setup
// 0.03 before it": the verdict's `seconds`, largest first, parts under 5 ms left out. runner_start
// is part of prepare, setup is outside total (docs/verdict.md).
std::string seconds_line(const std::map<std::string, double>& seconds) {
  auto total = seconds.find("total");
  if (total == seconds.end()) return "";
  std::vector<std::pair<double, std::string>> parts;
  for (const auto& [name, s] : seconds)
    if (name != "total" && name != "setup" && name != "runner_start" && s >= 0.005) parts.emplace_back(s, name);
  std::sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  auto fmt = [](double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", s);
    return std::string(buf);
  };
  const auto waited = seconds.find("runner_start");
  const bool say_waited = waited != seconds.end() && waited->second >= 0.005;
  std::string line = "seconds: " + fmt(total->second) + " in the judge";
  for (size_t i = 0; i < parts.size(); ++i) {
    line += (i == 0 ? ": " : ", ") + parts[i].second + " " + fmt(parts[i].first);
    if (parts[i].second == "prepare" && say_waited) line += " (waiting for runners " + fmt(waited->second) + ")";
  }
  if (auto setup = seconds.find("setup"); setup != seconds.end()) line += "; setup " + fmt(setup->second) + " before it";
  return line + "\n";
}

}  // namespace

std::string render_verdict(const Verdict& v) {
  std::string out = "task " + v.task + "  solution " + v.solution_path + "  (sha256 " +
                    v.solution_sha256.substr(0, 12) + ")\n";
  if (!v.compile.ok) {
    return out + std::string(failure_class_name(v.failure_class())) +
           ": the solution did not compile or link\n" + v.compile.log +
           (v.compile.log.empty() || v.compile.log.back() == '\n' ? "" : "\n");
  }
  Table t({"set", "shape", "status", "time", "±CI", "baseline", "speedup", "GFLOP/s", "GB/s",
           "samples"});
  for (const auto& s : v.shapes) {
    std::vector<std::string> row = {
        s.set, s.shape.label(), s.correct ? "pass" : std::string(failure_class_name(s.failure))};
    if (s.timing) {
      const Timing& tm = *s.timing;
      row.push_back(format_duration_ns(tm.candidate.median));
      row.push_back(format_number(100 * tm.candidate.relative_ci_half_width(), 2) + "%");
      row.push_back(tm.baseline ? format_duration_ns(tm.baseline->median) : "-");
      bool voided = false;
      for (const auto& f : v.flags)
        voided = voided || (f.voids_speedup && (f.shape.empty() || f.shape == s.shape.label()));
      row.push_back(!tm.speedup ? "-" : voided ? "voided" : format_number(*tm.speedup) + "x");
      row.push_back(format_number(tm.gflops));
      row.push_back(format_number(tm.gbytes_per_s));
      row.push_back(std::to_string(tm.candidate.count));
    }
    t.add_row(row);
  }
  for (const auto& s : v.shapes)
    if (s.timing && s.timing->graph_launches > 0) {
      out +=
          "timing mode: CUDA graph, " + std::to_string(s.timing->graph_launches) +
          " calls per replay, times per call (only a replay's first call starts with a cold L2)\n";
      break;
    }
  for (const auto& s : v.shapes)
    if (s.timing && s.timing->window_overhead_ns) {
      out += "times: event windows less the device's fixed " +
             format_duration_ns(*s.timing->window_overhead_ns) +
             " (launch start-up and events), as Nsight Compute counts a kernel\n";
      break;
    }
  out += t.render();
  for (const auto& s : v.shapes)
    if (!s.correct) {
      out += "  " + s.shape.label() + ": " + std::string(failure_class_name(s.failure)) + ": " +
             s.message + "\n";
      if (!s.explanation.empty())
        out += "    why (" + s.explanation_kind + "): " + s.explanation + "\n";
    }
  for (const auto& s : v.shapes) {
    auto u = s.timing ? s.timing->speedup_uncertainty() : std::nullopt;
    if (u && *u > 0.02)
      out += "  note at " + s.shape.label() + ": the speedup is only known to lie within " +
             format_number(*s.timing->speedup * std::exp(-*u), 3) + "x to " +
             format_number(*s.timing->speedup * std::exp(*u), 3) + "x (medians: candidate ±" +
             format_number(100 * s.timing->candidate.relative_ci_half_width(), 2) +
             "%, baseline ±" +
             format_number(100 * s.timing->baseline->relative_ci_half_width(), 2) +
             "%); a larger --max-time narrows it\n";
  }
  // Timed on fewer runners than asked (Lane::drop_runner): said once, from the first shape it holds
  // for (again, whole, from a shape where a further runner was dropped).
  std::string fewer_said;
  for (const auto& s : v.shapes) {
    if (!s.timing || s.timing->fewer_runners_because.empty() ||
        s.timing->fewer_runners_because == fewer_said)
      continue;
    fewer_said = s.timing->fewer_runners_because;
    out += "  note from " + s.shape.label() + " on: timed on fewer runners than asked (candidate " +
           std::to_string(s.timing->runners) +
           (s.timing->baseline ? ", baseline " + std::to_string(s.timing->baseline_runners) : "") +
           "): " + fewer_said + "\n";
  }
  for (const auto& w : v.warnings)
    out += "  warning (" + w.kind + ") at line " + std::to_string(w.line) + ": " + w.why + ": " +
           w.text + "\n";
  for (const auto& f : v.flags)
    out += "  flag " + f.name + (f.shape.empty() ? "" : " at " + f.shape) + ": " + f.reason +
           (f.voids_speedup ? " (speedup not counted)" : "") + "\n";
  if (v.sanitizer) {
    std::string names;
    for (const auto& t : v.sanitizer->tools) names += (names.empty() ? "" : ", ") + t.tool;
    out += "  sanitizer (" + names + ") at " + v.sanitizer->shape.label() + ": " +
           (v.sanitizer->ok() ? "clean" : "not clean") + "\n";
    for (const auto& t : v.sanitizer->tools) {
      if (t.ok) continue;
      out += "  sanitizer " + t.tool + ": " + std::to_string(t.errors) +
             (t.errors == 1 ? " error" : " errors") + "\n";
      std::string report = t.report;
      for (size_t at = 0; at < report.size();) {
        size_t end = report.find('\n', at);
        if (end == std::string::npos) end = report.size();
        out += "    " + report.substr(at, end - at) + "\n";
        at = end + 1;
      }
    }
  }
  if (!v.internal_error.empty()) out += "  internal error: " + v.internal_error + "\n";
  if (auto gen = v.generalization()) {
    int judged = gen->both_pass + gen->regression + gen->both_fail + gen->improvement;
    out += "held-out: candidate correct on " + std::to_string(gen->both_pass + gen->improvement) +
           " of " + std::to_string(judged + gen->baseline_unknown) +
           " shapes; against the baseline: " + std::to_string(gen->both_pass) + " both pass, " +
           std::to_string(gen->regression) + " regression, " + std::to_string(gen->both_fail) +
           " both fail, " + std::to_string(gen->improvement) + " improvement";
    if (gen->conditional_correctness)
      out += "; conditional correctness " + format_number(100 * *gen->conditional_correctness, 3) +
             "%";
    if (gen->speedup_retention)
      out += "; speedup retention " + format_number(*gen->speedup_retention, 3);
    out += "\n";
  }
  out += seconds_line(v.seconds);
  FailureClass fc = v.failure_class();
  auto g = v.geomean_speedup("visible");
  out += std::string("result: ") +
         (fc == FailureClass::kNone ? "correct"
                                    : "not correct (" + std::string(failure_class_name(fc)) + ")");
  if (g && !v.speedup_voided())
    out += ", geomean speedup " + format_number(*g) + "x over the baseline";
  if (v.speedup_voided()) out += ", speedup voided by a flag";
  out += "\n";
  return out;
}

}  // namespace arena
