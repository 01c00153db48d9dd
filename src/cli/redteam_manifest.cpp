#include "cli/redteam_manifest.hpp"

#include <yaml-cpp/yaml.h>

#include <regex>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "judge/verdict.hpp"

namespace arena::cli {
namespace {

namespace fs = std::filesystem;

std::string where(const fs::path& file, const YAML::Node& node) {
  std::string w = file.string();
  if (node.IsDefined() && node.Mark().line >= 0) w += ":" + std::to_string(node.Mark().line + 1);
  return w;
}

// Every failure class the verdict knows, by name (a class added to the verdict is known here too).
std::set<std::string> failure_class_names() {
  std::set<std::string> names;
  for (int c = 1; c < 64; ++c) {
    std::string name(failure_class_name(static_cast<FailureClass>(c)));
    if (name == "none") break;
    names.insert(name);
  }
  return names;
}

std::string joined(const std::set<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : ", ") + i;
  return s;
}

std::string number_text(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

}  // namespace

std::string RedteamExpectation::text() const {
  switch (kind) {
    case Kind::kFailure:
      return "failure: " + name;
    case Kind::kFlag:
      return "flag: " + name;
    case Kind::kHonest:
      return "honest >= " + number_text(speedup) + "x";
    case Kind::kNoGain:
      return "no gain <= " + number_text(speedup) + "x";
  }
  return "";
}

const std::vector<std::string>& exploit_classes() {
  static const std::vector<std::string> classes = {
      "stale output",     "constant / zero output", "input mutation",       "side stream",
      "host thread",      "caching across calls",   "warm-up detection",    "drift",
      "timer tampering",  "result forging",         "persisting L2",        "lower precision",
      "approximate work", "shape specialization",   "uninitialized memory", "out-of-bounds writes",
      "library fallback", "impossible speed",       "environment probing"};
  return classes;
}

void RedteamManifest::fail(const RedteamCase& c, const std::string& field,
                           const std::string& what) const {
  throw InputError(file.string() + (c.line > 0 ? ":" + std::to_string(c.line) : "") + ": case '" +
                   (c.name.empty() ? "<unnamed>" : c.name) + "': field '" + field + "': " + what);
}

RedteamManifest load_redteam_manifest(const fs::path& file) {
  RedteamManifest m;
  m.file = file;
  if (!fs::is_regular_file(file))
    throw InputError("--manifest '" + file.string() + "': no such file");
  YAML::Node root;
  try {
    root = YAML::LoadFile(file.string());
  } catch (const YAML::Exception& e) {
    throw InputError(file.string() + ":" + std::to_string(e.mark.line + 1) +
                     ": not valid YAML: " + e.msg);
  }
  if (!root.IsMap() || !root["cases"].IsDefined())
    throw InputError(where(file, root) +
                     ": field 'cases' is missing: the manifest is a mapping with a list 'cases'");
  YAML::Node cases = root["cases"];
  if (!cases.IsSequence() || cases.size() == 0)
    throw InputError(where(file, cases) + ": field 'cases': must be a non-empty list of cases");
  for (const auto& kv : root)
    if (kv.first.as<std::string>() != "cases")
      throw InputError(where(file, kv.first) + ": field '" + kv.first.as<std::string>() +
                       "' is not known (the manifest has only 'cases')");

  const std::set<std::string> keys = {"name",     "class", "backend", "task",
                                      "solution", "args",  "expect",  "note"};
  const std::set<std::string> classes(exploit_classes().begin(), exploit_classes().end());
  const std::set<std::string> failures = failure_class_names();
  const std::regex identifier("[a-z0-9_]+");
  std::set<std::string> names;
  for (size_t i = 0; i < cases.size(); ++i) {
    const YAML::Node node = cases[i];
    RedteamCase c;
    c.name = "#" + std::to_string(i + 1);
    c.line = node.Mark().line >= 0 ? node.Mark().line + 1 : 0;
    if (!node.IsMap())
      m.fail(c, "cases[" + std::to_string(i) + "]",
             "must be a mapping (name, class, backend, ...)");
    auto scalar = [&](const char* key, bool required) -> std::string {
      const YAML::Node v = node[key];
      if (!v.IsDefined() || v.IsNull()) {
        if (required) m.fail(c, key, "is missing");
        return "";
      }
      if (!v.IsScalar()) m.fail(c, key, "must be a single value");
      return v.as<std::string>();
    };
    c.name = scalar("name", true);
    for (const auto& kv : node)
      if (!keys.count(kv.first.as<std::string>()))
        m.fail(c, kv.first.as<std::string>(), "is not known (the fields are " + joined(keys) + ")");
    if (!std::regex_match(c.name, identifier))
      m.fail(c, "name", "must be lower-case letters, digits and '_'");
    if (!names.insert(c.name).second) m.fail(c, "name", "another case has this name");
    c.exploit_class = scalar("class", true);
    if (!classes.count(c.exploit_class))
      m.fail(c, "class",
             "'" + c.exploit_class + "' is not a class of EXPLOITS.md (" + joined(classes) + ")");
    c.backend = scalar("backend", true);
    if (c.backend != "cpu" && c.backend != "cuda")
      m.fail(c, "backend", "must be cpu or cuda, not '" + c.backend + "'");
    c.task = scalar("task", true);
    c.solution = scalar("solution", true);
    c.solution_path = (file.parent_path() / c.solution).lexically_normal();
    if (!fs::is_regular_file(c.solution_path))
      m.fail(
          c, "solution",
          "'" + c.solution_path.string() + "' does not exist (paths are relative to the manifest)");
    c.note = scalar("note", false);

    if (const YAML::Node args = node["args"]; args.IsDefined() && !args.IsNull()) {
      if (!args.IsSequence())
        m.fail(c, "args", "must be a list of `arena eval` options, e.g. [--max-time, 0.3]");
      for (size_t k = 0; k < args.size(); ++k) {
        if (!args[k].IsScalar())
          m.fail(c, "args[" + std::to_string(k) + "]", "must be a single value");
        c.args.push_back(args[k].as<std::string>());
      }
    }
    for (const auto& a : c.args)
      for (const char* own : {"-t", "--task", "-s", "--solution", "--json"})
        if (a == own || a.rfind(std::string(own) + "=", 0) == 0)
          m.fail(c, "args",
                 "'" + a +
                     "' is set by arena redteam itself (from 'task' and 'solution'; --json of "
                     "redteam)");
    std::vector<std::string> words = {"--task", c.task, "--solution", c.solution_path.string()};
    words.insert(words.end(), c.args.begin(), c.args.end());
    try {
      c.eval = parse_eval_options(words);
    } catch (const CLI::ParseError& e) {
      m.fail(c, "args", std::string("not options arena eval takes: ") + e.what());
    }

    const YAML::Node expect = node["expect"];
    if (!expect.IsDefined() || expect.IsNull())
      m.fail(c, "expect",
             "is missing (one of failure: CLASS, flag: NAME, honest: {min_speedup: X}, no_gain: "
             "{max_speedup: X})");
    if (!expect.IsMap() || expect.size() != 1)
      m.fail(c, "expect",
             "must be one of failure: CLASS, flag: NAME, honest: {min_speedup: X}, no_gain: "
             "{max_speedup: X}");
    const auto kind = expect.begin()->first.as<std::string>();
    const YAML::Node value = expect.begin()->second;
    if (kind == "failure" || kind == "flag") {
      if (!value.IsScalar()) m.fail(c, "expect." + kind, "must be a name");
      c.expect.kind =
          kind == "failure" ? RedteamExpectation::Kind::kFailure : RedteamExpectation::Kind::kFlag;
      c.expect.name = value.as<std::string>();
      if (kind == "failure" && !failures.count(c.expect.name))
        m.fail(c, "expect.failure",
               "'" + c.expect.name + "' is not a failure class (" + joined(failures) + ")");
      if (kind == "flag" && !std::regex_match(c.expect.name, identifier))
        m.fail(c, "expect.flag", "'" + c.expect.name + "' is not a flag name");
    } else if (kind == "honest" || kind == "no_gain") {
      const std::string key = kind == "honest" ? "min_speedup" : "max_speedup";
      const std::string field = "expect." + kind + "." + key;
      if (!value.IsMap() || value.size() != 1 || !value[key].IsDefined() || !value[key].IsScalar())
        m.fail(c, "expect." + kind, "must be {" + key + ": X}");
      try {
        size_t used = 0;
        const auto text = value[key].as<std::string>();
        c.expect.speedup = std::stod(text, &used);
        if (used != text.size()) throw std::invalid_argument("trailing");
      } catch (const std::exception&) {
        m.fail(c, field, "must be a number");
      }
      if (!(c.expect.speedup > 0)) m.fail(c, field, "must be above 0");
      if (c.eval.no_timing || c.eval.compile_only)
        m.fail(c, "args", "an expected speedup needs timing: drop --no-timing and --compile-only");
      c.expect.kind =
          kind == "honest" ? RedteamExpectation::Kind::kHonest : RedteamExpectation::Kind::kNoGain;
    } else {
      m.fail(c, "expect", "'" + kind + "' is not an expectation (failure, flag, honest, no_gain)");
    }
    if (c.expect.kind == RedteamExpectation::Kind::kFlag &&
        (c.eval.no_timing || c.eval.compile_only))
      m.fail(c, "args", "flags come from timing: drop --no-timing and --compile-only");
    m.cases.push_back(std::move(c));
  }
  return m;
}

}  // namespace arena::cli
