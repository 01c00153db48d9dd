// arena redteam: judge every case of the red-team manifest as `arena eval` would and compare the
// outcome with what the case expects (tests/redteam/cases.yaml, docs/integrity.md).

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/commands.hpp"
#include "cli/context.hpp"
#include "cli/eval_options.hpp"
#include "cli/redteam_manifest.hpp"
#include "core/error.hpp"
#include "core/json_text.hpp"
#include "core/subprocess.hpp"
#include "core/task_catalog.hpp"
#include "core/task_loader.hpp"
#include "judge/verdict_json.hpp"
#include "report/table.hpp"

namespace arena::cli {
namespace {

struct RedteamOptions {
  std::string manifest;
  std::string backend;             // only the cases of this backend
  std::vector<std::string> cases;  // only these
  std::string json;
  std::string markdown;
};

// What the judge answered, in the manifest's terms, and whether the case expected it.
struct Outcome {
  std::string got;
  bool ok = false;
};

// The geomean speedup the expectation is about: over the visible shapes, else the --shape ones.
std::optional<double> counted_speedup(const Verdict& v) {
  auto s = v.geomean_speedup("visible");
  return s ? s : v.geomean_speedup("custom");
}

Outcome compare(const Verdict& v, const RedteamExpectation& e) {
  using Kind = RedteamExpectation::Kind;
  Outcome o;
  const FailureClass fc = v.failure_class();
  std::set<std::string> voiding;
  for (const auto& f : v.flags)
    if (f.voids_speedup) voiding.insert(f.name);
  const auto speedup = counted_speedup(v);
  if (!v.internal_error.empty()) {
    o.got = "internal error: " + v.internal_error;
  } else if (fc != FailureClass::kNone) {
    o.got = "failure: " + std::string(failure_class_name(fc));
  } else if (!voiding.empty()) {
    o.got = "flag: ";
    for (const auto& n : voiding) o.got += (n == *voiding.begin() ? "" : ", ") + n;
  } else {
    o.got = speedup ? "pass " + format_number(*speedup, 3) + "x" : "pass (not timed)";
  }
  if (!v.internal_error.empty()) return o;
  switch (e.kind) {
    case Kind::kFailure:
      o.ok = failure_class_name(fc) == e.name;
      break;
    case Kind::kFlag:
      o.ok = fc == FailureClass::kNone && voiding.count(e.name) > 0;
      break;
    case Kind::kHonest:
      o.ok = fc == FailureClass::kNone && voiding.empty() && speedup && *speedup >= e.speedup;
      break;
    case Kind::kNoGain:
      o.ok = fc == FailureClass::kNone && (!voiding.empty() || (speedup && *speedup <= e.speedup));
      break;
  }
  return o;
}

std::string seconds_text(double s) {
  return format_number(s, 3) + " s";
}

int run_redteam(const RedteamOptions& o, const GlobalOptions& global) {
  RedteamManifest manifest = load_redteam_manifest(o.manifest);
  const auto root = tasks_root(global.tasks_dir);
  // Every case is checked before any is judged: a bad manifest fails at once.
  std::map<std::string, Task> tasks;
  for (const auto& c : manifest.cases) {
    try {
      if (!tasks.count(c.task)) tasks.emplace(c.task, load_task(resolve_task(c.task, root)));
    } catch (const InputError& e) {
      manifest.fail(c, "task", e.what());
    }
    if (tasks.at(c.task).backend != c.backend)
      manifest.fail(
          c, "backend",
          "'" + c.backend + "', but " + c.task + " is a " + tasks.at(c.task).backend + " task");
  }
  std::set<std::string> known;
  for (const auto& c : manifest.cases) known.insert(c.name);
  for (const auto& n : o.cases)
    if (!known.count(n))
      throw InputError("--case '" + n + "': no such case in " + manifest.file.string());
  std::vector<const RedteamCase*> chosen;
  for (const auto& c : manifest.cases) {
    if (!o.backend.empty() && c.backend != o.backend) continue;
    if (!o.cases.empty() && std::find(o.cases.begin(), o.cases.end(), c.name) == o.cases.end())
      continue;
    chosen.push_back(&c);
  }
  if (chosen.empty())
    throw InputError("no case of " + manifest.file.string() + " matches --backend and --case");

  GlobalOptions quiet = global;
  quiet.quiet = true;  // one progress line per case, not the judge's steps
  Table table({"class", "case", "backend", "expected", "got", "ok", "seconds"});
  nlohmann::json results = nlohmann::json::array();
  int ran = 0, matched = 0, skipped = 0;
  std::map<std::string, std::string> unavailable;  // backend -> why, asked once
  for (size_t i = 0; i < chosen.size(); ++i) {
    const RedteamCase& c = *chosen[i];
    const double t0 = now_seconds();
    if (!unavailable.count(c.backend)) {
      try {
        unavailable[c.backend] = backend_named(c.backend, global)->unavailable();
      } catch (const InputError& e) {  // not in this build
        unavailable[c.backend] = e.what();
      }
    }
    nlohmann::json r = {{"name", c.name},
                        {"class", c.exploit_class},
                        {"backend", c.backend},
                        {"task", c.task},
                        {"solution", c.solution},
                        {"args", c.args},
                        {"expected", c.expect.text()},
                        {"note", c.note}};
    std::string got, mark;
    if (!unavailable[c.backend].empty()) {
      ++skipped;
      got = "skipped: " + unavailable[c.backend];
      mark = "skipped";
      r["skipped"] = unavailable[c.backend];
    } else {
      ++ran;
      Outcome out;
      try {
        Verdict v = judge_eval(c.eval, quiet);
        out = compare(v, c.expect);
        r["verdict"] = verdict_to_json(v);
      } catch (const InputError& e) {
        out.got = std::string("error: ") + e.what();
      }
      got = out.got;
      mark = out.ok ? "ok" : "MISMATCH";
      matched += out.ok ? 1 : 0;
      r["skipped"] = nullptr;
    }
    const double secs = now_seconds() - t0;
    r["got"] = got;
    r["ok"] = mark == "ok";
    r["seconds"] = secs;
    results.push_back(r);
    table.add_row(
        {c.exploit_class, c.name, c.backend, c.expect.text(), got, mark, seconds_text(secs)});
    if (!global.quiet)
      std::cerr << "[" << i + 1 << "/" << chosen.size() << "] " << c.name << " (" << c.exploit_class
                << ", " << c.backend << "): " << mark
                << (mark == "skipped" ? "" : ": expected " + c.expect.text() + ", got " + got)
                << " (" << seconds_text(secs) << ")\n";
  }

  const int mismatched = ran - matched;
  std::cout << table.render();
  std::cout << "red team: " << ran << " judged, " << matched << " as expected, " << mismatched
            << " not" << (skipped ? ", " + std::to_string(skipped) + " skipped" : "") << "\n";
  for (const auto& r : results)
    if (r["skipped"].is_null() && !r["ok"].get<bool>())
      std::cout << "MISMATCH " << r["name"].get<std::string>() << ": expected "
                << r["expected"].get<std::string>() << ", got " << r["got"].get<std::string>()
                << "\n";
  if (ran == 0) {
    std::cout << "nothing could run here";
    for (const auto& [b, why] : unavailable)
      if (!why.empty()) std::cout << " (" << b << ": " << why << ")";
    std::cout << "\n";
  }
  if (!o.json.empty()) {
    nlohmann::json doc = {{"manifest", manifest.file.string()},
                          {"summary",
                           {{"judged", ran},
                            {"as_expected", matched},
                            {"mismatched", mismatched},
                            {"skipped", skipped}}},
                          {"cases", results}};
    write_file_atomic(o.json, json_text(doc, 2) + "\n");
  }
  if (!o.markdown.empty()) {
    std::ofstream md(o.markdown);
    if (!md) throw InputError("--markdown '" + o.markdown + "': cannot write there");
    md << table.render_markdown();
  }
  if (mismatched > 0) return kExitNotCorrect;
  return ran == 0 ? kExitNothingRan : kExitCorrect;
}

}  // namespace

Runner add_redteam_command(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<RedteamOptions>();
  CLI::App* cmd = app.add_subcommand("redteam",
                                     "Judge the red-team cases (cheats of every exploit class, "
                                     "honest fast solutions) against their expectations");
  o->manifest =
      (std::filesystem::path(ARENA_SOURCE_DIR) / "tests" / "redteam" / "cases.yaml").string();
  cmd->add_option("--manifest", o->manifest, "The manifest")->capture_default_str();
  cmd->add_option("--backend", o->backend, "Only the cases of this backend")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  cmd->add_option("--case", o->cases, "Only this case (repeatable)");
  cmd->add_option("--json", o->json, "Write every case's outcome and verdict as JSON to FILE");
  cmd->add_option("--markdown", o->markdown, "Write the summary table as Markdown to FILE");
  cmd->footer(
      "Exit codes: 0 every judged case as expected, 1 some case not as expected, 2 input error (a "
      "bad manifest),\n"
      "4 no case could run here (e.g. CUDA cases without a GPU: each is reported skipped).");
  return [o, &global] { return run_redteam(*o, global); };
}

}  // namespace arena::cli
