// arena eval: judge one solution of one task.

#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/context.hpp"
#include "core/error.hpp"
#include "core/subprocess.hpp"
#include "core/task_catalog.hpp"
#include "core/task_loader.hpp"
#include "judge/judge.hpp"
#include "judge/random.hpp"
#include "judge/verdict_json.hpp"
#include "report/verdict_table.hpp"

namespace arena::cli {
namespace {

struct EvalOptions {
  std::string task;
  std::string solution;
  std::string shapes = "visible";
  std::string json_path;
  std::string seed;
  bool no_timing = false;
  bool compile_only = false;
  bool warm = false;
  double timeout_s = 0;
  double max_time_s = 2.0;
  int seeds_per_shape = 2;
};

std::vector<JudgedShape> pick_shapes(const Task& task, const std::string& which) {
  std::vector<JudgedShape> out;
  if (which == "visible" || which == "all")
    for (const auto& s : task.visible) out.push_back({s, "visible"});
  if (which == "heldout" || which == "all") {
    if (task.heldout.shapes.empty())
      throw InputError(task.file.string() + ": field 'heldout.shapes': the task declares no held-out shapes to judge");
    for (const auto& s : task.heldout.shapes) out.push_back({s, "heldout"});
  }
  for (const auto& js : out) {
    auto problems = task.shape_problems(js.shape);
    if (!problems.empty())
      throw InputError(task.file.string() + ": " + js.set + " shape " + js.shape.label() + " is not legal: " + problems[0]);
  }
  return out;
}

uint64_t parse_seed(const std::string& s) {
  try {
    size_t used = 0;
    uint64_t v = std::stoull(s, &used, 0);
    if (used == s.size()) return v;
  } catch (const std::exception&) {
  }
  throw InputError("--seed '" + s + "' is not an unsigned 64-bit integer");
}

int run_eval(const EvalOptions& o, const GlobalOptions& global) {
  Task task = load_task(resolve_task(o.task, tasks_root(global.tasks_dir)));
  if (!std::filesystem::is_regular_file(o.solution))
    throw InputError("--solution '" + o.solution + "': no such file");
  std::string source = read_file(o.solution);

  JudgeOptions jo;
  jo.shapes = pick_shapes(task, o.shapes);
  jo.seed_was_given = !o.seed.empty();
  jo.seed = jo.seed_was_given ? parse_seed(o.seed) : secret_seed();
  jo.seeds_per_shape = o.seeds_per_shape;
  jo.timing = !o.no_timing;
  jo.compile_only = o.compile_only;
  jo.cold_cache = !o.warm;
  jo.timeout_s = o.timeout_s;
  jo.stopping.max_seconds = o.max_time_s;
  if (!global.quiet) jo.progress = [](const std::string& line) { std::cerr << "  .. " << line << "\n"; };

  auto backend = backend_for(task, global);
  if (std::string why = backend->unavailable(); !why.empty() && !o.compile_only)
    throw InputError("cannot run " + task.backend + " solutions on this machine: " + why +
                     " (--compile-only still checks that the solution compiles)");
  Verdict v = judge_solution(task, *backend, o.solution, source, jo);

  bool json_to_stdout = o.json_path == "-";
  (json_to_stdout ? std::cerr : std::cout) << render_verdict(v);
  if (!o.json_path.empty()) {
    std::string text = verdict_to_json(v).dump(2) + "\n";
    if (json_to_stdout) {
      std::cout << text;
    } else {
      write_file_atomic(o.json_path, text);
    }
  }
  return v.exit_code();
}

}  // namespace

Runner add_eval_command(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<EvalOptions>();
  CLI::App* cmd = app.add_subcommand("eval", "Judge one solution: compile, check on every shape, time against the baseline");
  cmd->add_option("-t,--task", o->task, "Task directory, or a name such as cpu/sgemm_f32")->required();
  cmd->add_option("-s,--solution", o->solution, "Solution source file")->required();
  cmd->add_option("--shapes", o->shapes, "Which shapes: visible, heldout or all")
      ->check(CLI::IsMember({"visible", "heldout", "all"}))
      ->capture_default_str();
  cmd->add_option("--json", o->json_path, "Write the verdict as JSON to FILE ('-' for stdout)");
  cmd->add_option("--seed", o->seed, "Seed for inputs (default: a fresh secret one, recorded in the verdict)");
  cmd->add_option("--seeds-per-shape", o->seeds_per_shape, "Input seeds per shape (at least 2)")
      ->check(CLI::Range(2, 100))
      ->capture_default_str();
  cmd->add_flag("--no-timing", o->no_timing, "Check correctness only");
  cmd->add_flag("--compile-only", o->compile_only, "Only compile (and link-check); needs no device");
  cmd->add_flag("--warm", o->warm, "Time with warm caches (default: caches evicted before every sample)");
  cmd->add_option("--timeout", o->timeout_s, "Seconds one call may take (default: the task's limit)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--max-time", o->max_time_s, "Seconds of timing per shape at most")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->footer("Exit codes: 0 correct, 1 not correct (or speedup voided), 2 input error, 3 internal error.");
  return [o, &global] { return run_eval(*o, global); };
}

}  // namespace arena::cli
