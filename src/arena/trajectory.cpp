#include "arena/trajectory.hpp"

#include <ctime>
#include <fstream>

#include "core/error.hpp"
#include "core/json_text.hpp"
#include "core/subprocess.hpp"
#include "report/table.hpp"

namespace arena {
namespace {

// The first line of a compile log that names an error, else its first line.
std::string first_error_line(const std::string& log) {
  std::string first;
  size_t at = 0;
  while (at < log.size()) {
    size_t end = log.find('\n', at);
    std::string line = log.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (first.empty() && !line.empty()) first = line;
    if (line.find("error") != std::string::npos) return line;
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return first;
}

std::string cut(const std::string& s, size_t n) {
  return s.size() <= n ? s : s.substr(0, n) + "…";
}

}  // namespace

std::string utc_now_iso() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

RoundRecord summarize_verdict(const Verdict& v) {
  RoundRecord r;
  r.sha256 = v.solution_sha256;
  r.compiled = v.compiled();
  r.correct_visible = v.correct_on("visible").value_or(false);
  r.speedup_voided = v.speedup_voided();
  if (!r.speedup_voided) r.speedup = v.geomean_speedup("visible");
  if (FailureClass c = v.failure_class(); c != FailureClass::kNone)
    r.failure_class = failure_class_name(c);
  if (!v.internal_error.empty()) {
    r.failure_message = cut(v.internal_error, 300);
  } else if (!v.compiled()) {
    r.failure_message = cut(first_error_line(v.compile.log), 300);
  } else {
    for (const auto& s : v.shapes)
      if (!s.correct) {
        r.failure_message = cut(s.message, 300);
        break;
      }
  }
  for (const auto& s : v.shapes) r.shapes_passed += s.correct ? 1 : 0;
  r.shapes_total = static_cast<int>(v.shapes.size());
  if (auto t = v.seconds.find("total"); t != v.seconds.end()) r.judge_seconds = t->second;
  return r;
}

nlohmann::json round_to_json(const RoundRecord& r) {
  return {{"round", r.round},
          {"kind", r.kind},
          {"time", r.time},
          {"seconds_into_episode", r.seconds_into_episode},
          {"file", r.file},
          {"snapshot", r.snapshot},
          {"sha256", r.sha256},
          {"verdict",
           {{"compiled", r.compiled},
            {"correct_visible", r.correct_visible},
            {"speedup", r.speedup ? nlohmann::json(*r.speedup) : nlohmann::json(nullptr)},
            {"speedup_voided", r.speedup_voided},
            {"failure_class",
             r.failure_class.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.failure_class)},
            {"failure_message", r.failure_message},
            {"shapes_passed", r.shapes_passed},
            {"shapes_total", r.shapes_total},
            {"judge_seconds", r.judge_seconds}}},
          {"feedback", r.feedback}};
}

RoundRecord round_from_json(const nlohmann::json& j) {
  RoundRecord r;
  r.round = j.at("round");
  r.kind = j.value("kind", "eval");  // trajectories written before profile rounds existed
  if (r.kind != "eval" && r.kind != "profile")
    throw InputError("unknown round kind '" + r.kind + "' (eval or profile)");
  r.time = j.value("time", "");
  r.seconds_into_episode = j.value("seconds_into_episode", 0.0);
  r.file = j.value("file", "");
  r.snapshot = j.value("snapshot", "");
  r.sha256 = j.value("sha256", "");
  const auto& v = j.at("verdict");
  r.compiled = v.value("compiled", false);
  r.correct_visible = v.value("correct_visible", false);
  if (v.contains("speedup") && v["speedup"].is_number()) r.speedup = v["speedup"].get<double>();
  r.speedup_voided = v.value("speedup_voided", false);
  if (v.contains("failure_class") && v["failure_class"].is_string())
    r.failure_class = v["failure_class"];
  r.failure_message = v.value("failure_message", "");
  r.shapes_passed = v.value("shapes_passed", 0);
  r.shapes_total = v.value("shapes_total", 0);
  r.judge_seconds = v.value("judge_seconds", 0.0);
  r.feedback = j.value("feedback", "");
  return r;
}

void append_round(const std::filesystem::path& trajectory, const RoundRecord& r) {
  std::ofstream out(trajectory, std::ios::app);
  out << json_text(round_to_json(r)) << "\n";
  out.flush();
  if (!out) throw InternalError(trajectory.string() + ": cannot append the round (disk full?)");
}

std::vector<RoundRecord> read_trajectory(const std::filesystem::path& trajectory) {
  std::vector<RoundRecord> out;
  if (!std::filesystem::exists(trajectory)) return out;
  std::ifstream in(trajectory);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    try {
      out.push_back(round_from_json(nlohmann::json::parse(line)));
    } catch (const std::exception& e) {
      throw InputError(trajectory.string() + ":" + std::to_string(number) +
                       ": not a round record: " + e.what());
    }
  }
  return out;
}

std::optional<int> best_round(const std::vector<RoundRecord>& rounds) {
  std::optional<int> best;
  double best_speedup = -1;
  for (const auto& r : rounds) {
    if (!r.correct_visible) continue;
    double s = r.speedup.value_or(0);
    if (s > best_speedup) {
      best_speedup = s;
      best = r.round;
    }
  }
  return best;
}

std::string round_brief(const RoundRecord& r) {
  if (r.kind == "profile")
    return !r.compiled ? "profile: compile_error: " + r.failure_message
                       : "profile" + (r.failure_message.empty() ? std::string() : ": " + r.failure_message);
  if (!r.compiled) return "compile_error: " + r.failure_message;
  if (!r.correct_visible)
    return r.failure_class + " (" + std::to_string(r.shapes_passed) + "/" +
           std::to_string(r.shapes_total) + " shapes): " + r.failure_message;
  if (r.speedup_voided) return "correct, speedup voided by a flag";
  return "correct, " +
         (r.speedup ? format_number(*r.speedup) + "x" : std::string("no speedup measured"));
}

}  // namespace arena
