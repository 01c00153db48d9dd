#include "cli/tasks_table.hpp"

#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/context.hpp"
#include "core/error.hpp"
#include "core/json_text.hpp"
#include "core/subprocess.hpp"
#include "core/task_catalog.hpp"
#include "core/task_loader.hpp"
#include "judge/heldout_generator.hpp"
#include "judge/judge.hpp"
#include "judge/random.hpp"
#include "judge/verdict_json.hpp"
#include "report/table.hpp"

namespace arena::cli {
namespace {

std::string today() {
  std::time_t now = std::time(nullptr);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&now));
  return buf;
}

std::string fraction(const std::optional<double>& f) {
  return f ? format_number(*f, 2) : "-";
}

// One row from a verdict's JSON (a live run's or a saved one): the starter as candidate, the
// baseline counted as the expert when it is the task's expert file.
std::vector<std::string> row_of(const Task& t, const nlohmann::json& v, bool* ok) {
  Shape shape;
  const nlohmann::json* sv = v["shapes"].empty() ? nullptr : &v["shapes"][0];
  if (sv)
    for (const auto& [k, x] : (*sv)["params"].items()) shape.params[k] = x.get<int64_t>();
  *ok =
      v["compile"]["ok"] == true && sv && (*sv)["status"] == "pass" && (*sv)["timing"].is_object();
  if (!*ok) {
    std::string why = v["compile"]["ok"] != true  ? "the starter does not compile"
                      : !sv                       ? "not judged"
                      : (*sv)["status"] == "pass" ? "not timed"
                                                  : (*sv)["failure_class"].dump();
    return {t.id, shape.label(), "failed: " + why, "", "", "", ""};
  }
  const auto& tm = (*sv)["timing"];
  auto number = [](const nlohmann::json& j) {
    return j.is_number() ? std::optional<double>(j.get<double>()) : std::nullopt;
  };
  const bool expert = t.expert && tm["baseline"].is_object() && v["baseline"]["path"].is_string() &&
                      std::filesystem::path(v["baseline"]["path"].get<std::string>()).filename() ==
                          t.expert->filename();
  auto speedup = number(tm["speedup"]);
  return {t.id,
          shape.label(),
          format_duration_ns(tm["median_ns"].get<double>()),
          fraction(number(tm["roofline_fraction"])),
          expert ? format_duration_ns(tm["baseline"]["median_ns"].get<double>()) : "-",
          expert ? fraction(number(tm["baseline"]["roofline_fraction"])) : "-",
          expert && speedup && *speedup > 0 ? format_number(1.0 / *speedup, 3) + "x" : "-"};
}

}  // namespace

int run_tasks_table(const TasksTableOptions& o, const GlobalOptions& g) {
  auto root = tasks_root(g.tasks_dir);
  Table table({"task", "shape", "starter", "starter roofline", "expert", "expert roofline",
               "expert speedup"});
  // Saved verdicts, by task: a later file's verdict replaces an earlier one's.
  std::map<std::string, nlohmann::json> saved;
  for (const auto& f : o.from) {
    nlohmann::json arr;
    try {
      arr = nlohmann::json::parse(read_file(f));
    } catch (const std::exception& e) {
      throw InputError("--from '" + f + "': not a JSON array of verdicts (" + e.what() + ")");
    }
    if (!arr.is_array())
      throw InputError("--from '" + f +
                       "': not a JSON array of verdicts (arena tasks table --json)");
    for (size_t i = 0; i < arr.size(); ++i) {
      const auto& v = arr[i];
      bool whole = v.is_object() && v.value("schema", "") == "kernelarena.verdict/1";
      for (const char* key : {"task", "compile", "shapes", "baseline", "device"})
        whole = whole && v.contains(key);
      if (!whole)
        throw InputError("--from '" + f + "': element " + std::to_string(i) +
                         " is not a whole verdict (schema kernelarena.verdict/1 with task, "
                         "compile, shapes, baseline, "
                         "device); give files written by arena tasks table --json");
      saved[v["task"].get<std::string>()] = v;
    }
  }
  nlohmann::json all = nlohmann::json::array();
  std::string device;
  int failed = 0;
  for (const auto& id : o.ids) {
    Task t = load_task(resolve_task(id, root));
    nlohmann::json vj;
    if (!o.from.empty()) {
      auto it = saved.find(t.id);
      if (it == saved.end())
        throw InputError("--from: no verdict for " + t.id + " in the given files");
      vj = it->second;
    } else {
      // The largest visible shape: where a task is most bandwidth- or compute-bound, so its
      // roofline fractions say the most.
      const Shape& shape = largest_visible_shape(t);
      if (!g.quiet) std::cerr << "  .. " << id << " at " << shape.label() << "\n";
      auto backend = backend_for(t, g);
      JudgeOptions jo;
      jo.shapes = {{shape, "visible", ""}};
      jo.seed = secret_seed();
      jo.stopping.max_seconds = o.max_time_s;
      if (t.expert) {
        jo.baseline = *t.expert;
        jo.baseline_libraries = t.all_libraries();
      }
      vj = verdict_to_json(
          judge_solution(t, *backend, t.starter.string(), read_file(t.starter), jo));
    }
    if (device.empty() && vj["device"].is_object() && vj["device"].contains("name"))
      device = vj["device"]["name"];
    all.push_back(vj);
    bool ok = false;
    table.add_row(row_of(t, vj, &ok));
    failed += ok ? 0 : 1;
  }
  std::cout << table.render();
  std::string from_args;
  for (const auto& f : o.from) from_args += " --from " + f;
  if (!o.markdown.empty()) {
    std::ofstream md(o.markdown);
    if (!md) throw InputError("--markdown '" + o.markdown + "': cannot write there");
    md << "# Tasks: starter and expert on the " << device << "\n\n"
       << "Generated by `arena tasks table" << (o.suite.empty() ? "" : " --suite " + o.suite)
       << from_args << " --markdown " << o.markdown << "` on " << today()
       << " (do not edit by hand). Each task at its\n"
       << "largest visible shape: the starter (the naive kernel an agent starts from, the baseline "
          "of\n"
       << "evals) and, where the task has one, the expert (a vendor library: `arena eval "
          "--baseline\n"
       << "expert`), timed against each other with cold L2 (the median per call). Roofline: the "
          "least\n"
       << "time the device's peak row allows for the task's FLOPs and bytes, over the median (1.0 "
          "is the\n"
       << "hardware limit). Expert speedup: starter median / expert median. Task details: `arena "
          "tasks\n"
       << "show NAME` and each task's README.\n\n"
       << table.render_markdown();
  }
  if (!o.json.empty()) {
    std::ofstream js(o.json);
    if (!js) throw InputError("--json '" + o.json + "': cannot write there");
    js << json_text(all, 2) << "\n";
  }
  return failed == 0 ? kExitCorrect : kExitNotCorrect;
}

}  // namespace arena::cli
