#include "cli/eval_options.hpp"

#include <filesystem>
#include <iostream>
#include <sstream>

#include "cli/context.hpp"
#include "core/error.hpp"
#include "core/subprocess.hpp"
#include "core/task_catalog.hpp"
#include "core/task_loader.hpp"
#include "judge/judge.hpp"
#include "judge/random.hpp"
#include "judge/shape_selection.hpp"

namespace arena::cli {

Shape parse_shape_arg(const Task& task, const std::string& text) {
  Shape s;
  std::string spaced = text;
  for (char& c : spaced)
    if (c == ',') c = ' ';
  std::istringstream words(spaced);
  std::string word;
  auto bad = [&](const std::string& why) {
    std::string names;
    for (const auto& p : task.params) names += (names.empty() ? "" : " ") + p.name + "=…";
    return InputError("--shape '" + text + "': " + why + " (write every param of " + task.id +
                      ": " + names + ")");
  };
  while (words >> word) {
    auto eq = word.find('=');
    if (eq == std::string::npos || eq == 0) throw bad("'" + word + "' is not NAME=VALUE");
    std::string name = word.substr(0, eq);
    bool known = false;
    for (const auto& p : task.params) known = known || p.name == name;
    if (!known) throw bad("'" + name + "' is not a param of the task");
    if (s.params.count(name)) throw bad("'" + name + "' is given twice");
    try {
      size_t used = 0;
      int64_t v = std::stoll(word.substr(eq + 1), &used, 0);
      if (used != word.size() - eq - 1) throw std::invalid_argument("trailing");
      s.params[name] = v;
    } catch (const std::exception&) {
      throw bad("'" + word.substr(eq + 1) + "' is not an integer");
    }
  }
  for (const auto& p : task.params)
    if (!s.params.count(p.name)) throw bad("'" + p.name + "' is missing");
  return s;
}

namespace {

uint64_t parse_seed(const std::string& s) {
  try {
    size_t used = 0;
    uint64_t v = std::stoull(s, &used, 0);
    if (used == s.size()) return v;
  } catch (const std::exception&) {
  }
  throw InputError("--seed '" + s + "' is not an unsigned 64-bit integer");
}

}  // namespace

void add_eval_options(CLI::App& cmd, EvalOptions& o) {
  cmd.add_option("-t,--task", o.task, "Task directory, or a name such as cpu/sgemm_f32")
      ->required();
  cmd.add_option("-s,--solution", o.solution, "Solution source file")->required();
  cmd.add_option("--shapes", o.shapes, "Which shapes: visible, heldout or all")
      ->check(CLI::IsMember({"visible", "heldout", "all"}))
      ->capture_default_str();
  cmd.add_option(
      "--shape", o.explicit_shapes,
      "Judge this shape instead (repeatable), e.g. --shape 'M=8192 N=8192 K=8192'; set 'custom'");
  cmd.add_option("--baseline", o.baseline,
                 "Time against 'expert' (the task's expert file) or another solution FILE instead "
                 "of the task's baseline");
  cmd.add_option("--json", o.json_path, "Write the verdict as JSON to FILE ('-' for stdout)");
  cmd.add_option("--seed", o.seed,
                 "Seed for inputs (default: a fresh secret one, recorded in the verdict)");
  cmd.add_option("--seeds-per-shape", o.seeds_per_shape, "Input seeds per shape (at least 2)")
      ->check(CLI::Range(2, 100))
      ->capture_default_str();
  cmd.add_flag("--no-timing", o.no_timing, "Check correctness only");
  cmd.add_flag("--compile-only", o.compile_only, "Only compile (and link-check); needs no device");
  cmd.add_flag("--sanitize", o.sanitize,
               "Also run the solution under compute-sanitizer (memcheck, racecheck, initcheck, "
               "synccheck) on the "
               "smallest visible shape; any error fails the verdict (class sanitizer). CUDA only");
  cmd.add_option("--graph", o.graph_launches,
                 "Time each sample as one CUDA graph replay of N calls (launch-bound shapes); "
                 "reported per call")
      ->check(CLI::Range(1, 10000));
  cmd.add_flag("--warm", o.warm,
               "Time with warm caches (default: caches evicted before every sample)");
  cmd.add_option("--timeout", o.timeout_s, "Seconds one call may take (default: the task's limit)")
      ->check(CLI::PositiveNumber);
  cmd.add_option("--max-time", o.max_time_s, "Seconds of timing per shape at most")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--server", o.server,
                 "Judge on a running `arena serve` at this socket (its runners already up); '-' "
                 "for the default "
                 "($ARENA_JUDGE_SOCKET, else /tmp/kernelarena-<uid>/judge.sock)");
}

std::vector<std::string> eval_option_words(const EvalOptions& o) {
  auto number = [](double v) {
    std::ostringstream s;
    s.precision(17);
    s << v;
    return s.str();
  };
  std::vector<std::string> w = {"--task", o.task, "--solution", o.solution, "--shapes", o.shapes};
  for (const auto& shape : o.explicit_shapes) w.insert(w.end(), {"--shape", shape});
  if (!o.baseline.empty()) w.insert(w.end(), {"--baseline", o.baseline});
  if (!o.seed.empty()) w.insert(w.end(), {"--seed", o.seed});
  w.insert(w.end(), {"--seeds-per-shape", std::to_string(o.seeds_per_shape)});
  if (o.no_timing) w.emplace_back("--no-timing");
  if (o.compile_only) w.emplace_back("--compile-only");
  if (o.sanitize) w.emplace_back("--sanitize");
  if (o.warm) w.emplace_back("--warm");
  if (o.graph_launches > 0) w.insert(w.end(), {"--graph", std::to_string(o.graph_launches)});
  if (o.timeout_s > 0) w.insert(w.end(), {"--timeout", number(o.timeout_s)});
  w.insert(w.end(), {"--max-time", number(o.max_time_s)});
  return w;
}

EvalOptions parse_eval_options(const std::vector<std::string>& words) {
  EvalOptions o;
  CLI::App app{"arena eval"};
  add_eval_options(app, o);
  std::vector<std::string> reversed(words.rbegin(), words.rend());  // CLI11 takes them last first
  app.parse(reversed);
  return o;
}

Verdict judge_eval(const EvalOptions& o, const GlobalOptions& global, const EvalHooks& hooks) {
  const double started = now_seconds();
  Task task = load_task(resolve_task(o.task, tasks_root(global.tasks_dir)));
  if (!std::filesystem::is_regular_file(o.solution))
    throw InputError("--solution '" + o.solution + "': no such file");
  std::string source = read_file(o.solution);

  JudgeOptions jo;
  jo.seed_was_given = !o.seed.empty();
  jo.seed = jo.seed_was_given ? parse_seed(o.seed) : secret_seed();
  if (o.explicit_shapes.empty()) {
    jo.shapes = select_shapes(task, o.shapes, jo.seed);
  } else {
    for (const auto& text : o.explicit_shapes) {
      Shape s = parse_shape_arg(task, text);
      auto problems = task.shape_problems(s);
      if (!problems.empty())
        throw InputError("--shape '" + text + "' is not legal for " + task.id + ": " + problems[0]);
      jo.shapes.push_back({s, "custom", ""});
    }
  }
  if (o.baseline == "expert") {
    if (!task.expert)
      throw InputError(task.file.string() +
                       ": --baseline expert, but the task declares no 'expert' file");
    jo.baseline = *task.expert;
    jo.baseline_libraries = task.all_libraries();
  } else if (!o.baseline.empty()) {
    if (!std::filesystem::is_regular_file(o.baseline))
      throw InputError("--baseline '" + o.baseline +
                       "': no such file (give 'expert' or a solution file)");
    jo.baseline = o.baseline;
    jo.baseline_libraries = task.libraries;
  }
  jo.seeds_per_shape = o.seeds_per_shape;
  jo.timing = !o.no_timing;
  jo.compile_only = o.compile_only;
  jo.sanitize = o.sanitize;
  jo.cold_cache = !o.warm;
  jo.graph_launches = o.graph_launches;
  if (o.graph_launches > 0 && task.backend != "cuda")
    throw InputError("--graph replays CUDA graphs; " + task.id + " is a " + task.backend + " task");
  jo.timeout_s = o.timeout_s;
  jo.stopping.max_seconds = o.max_time_s;
  if (hooks.progress) {
    jo.progress = hooks.progress;
  } else if (!global.quiet) {
    jo.progress = [](const std::string& line) { std::cerr << "  .. " << line << "\n"; };
  }
  jo.runners = hooks.runners;

  auto backend = backend_for(task, global);
  if (std::string why = backend->unavailable(); !why.empty() && !o.compile_only)
    throw InputError("cannot run " + task.backend + " solutions on this machine: " + why +
                     " (--compile-only still checks that the solution compiles)");
  if (o.sanitize && o.compile_only)
    throw InputError("--sanitize runs the solution: it does not go with --compile-only");
  if (o.sanitize)
    if (std::string why = backend->sanitizer_unavailable(); !why.empty())
      throw InputError("--sanitize: " + why);
  const double setup = now_seconds() - started;
  Verdict v = judge_solution(task, *backend, o.solution, source, jo);
  v.seconds["setup"] = setup;
  return v;
}

}  // namespace arena::cli
