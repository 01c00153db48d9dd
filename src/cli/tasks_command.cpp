// arena tasks: list, show and check the tasks.

#include <algorithm>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/context.hpp"
#include "cli/tasks_table.hpp"
#include "core/error.hpp"
#include "core/signature.hpp"
#include "core/subprocess.hpp"
#include "core/task_catalog.hpp"
#include "core/task_loader.hpp"
#include "judge/heldout_generator.hpp"
#include "judge/judge.hpp"
#include "judge/random.hpp"
#include "judge/reference_validation.hpp"
#include "judge/task_audit.hpp"
#include "report/table.hpp"

namespace arena::cli {
namespace {

struct TasksOptions {
  std::string suite;
  std::string name;
  std::vector<std::string> names;
  std::optional<uint64_t> seed;  // show: also the held-out shapes this seed draws; check: its seed
  int heldout_seeds = 2;         // check: seeds whose held-out shapes the starter is judged on
};

std::vector<std::string> ids_for(const TasksOptions& o, const std::filesystem::path& root) {
  if (!o.suite.empty()) {
    auto suites = load_suites(root);
    auto it = suites.find(o.suite);
    if (it == suites.end()) {
      std::string known;
      for (const auto& [k, v] : suites) known += (known.empty() ? "" : ", ") + k;
      throw InputError("unknown suite '" + o.suite +
                       "' (known: " + (known.empty() ? "none" : known) + ")");
    }
    return it->second;
  }
  return list_task_ids(root);
}

int run_list(const TasksOptions& o, const GlobalOptions& g) {
  auto root = tasks_root(g.tasks_dir);
  Table t({"task", "category", "visible shapes", "description"});
  for (const auto& id : ids_for(o, root)) {
    Task task = load_task(resolve_task(id, root));
    t.add_row({task.id, task.category + (task.stub ? " + spec2cuda" : ""),
               std::to_string(task.visible.size()), task.description});
  }
  std::cout << t.render();
  return kExitCorrect;
}

int run_show(const TasksOptions& o, const GlobalOptions& g) {
  Task t = load_task(resolve_task(o.name, tasks_root(g.tasks_dir)));
  std::cout << t.id << " (" << t.category << "): " << t.description << "\n\n"
            << "signature:\n  "
            << signature_declaration(
                   t, t.backend == "cuda" ? SignatureFlavor::kCuda : SignatureFlavor::kCpu)
            << "\n\nparams:\n";
  for (const auto& p : t.params)
    std::cout << "  " << p.name << " in [" << p.min << ", " << p.max << "]"
              << (p.multiple_of > 1 ? ", multiple of " + std::to_string(p.multiple_of) : "")
              << "\n";
  for (const auto& c : t.constraints) std::cout << "  constraint: " << c.text() << "\n";
  std::cout << "\ntensors:\n";
  for (const auto& ts : t.tensors) {
    std::string shape;
    for (const auto& e : ts.shape) shape += (shape.empty() ? "" : ", ") + e.text();
    std::cout << "  " << (ts.role == Role::kInput ? "in  " : "out ") << ts.name << ": "
              << dtype_name(ts.dtype) << "[" << shape << "]\n";
  }
  std::cout << "\ntolerance:";
  for (const auto& [d, tol] : t.tolerance)
    std::cout << "  " << dtype_name(d) << " atol " << tol.atol << " rtol " << tol.rtol;
  if (t.tolerance_reduction) std::cout << "  (times sqrt(" << t.tolerance_reduction->text() << "))";
  std::cout << "\nflops: " << t.flops.text() << "\nbytes: " << t.bytes.text()
            << "\n\nvisible shapes:\n";
  for (const auto& s : t.visible) std::cout << "  " << s.label() << "\n";
  std::cout << "\nheld-out: " << t.heldout.shapes.size() << " declared shapes, categories";
  for (const auto& c : t.heldout.categories) std::cout << " " << c;
  std::cout << ", " << t.heldout.count << " drawn per seed";
  if (auto largest = largest_legal_shape(t))
    std::cout << "\nlargest legal shape: " << largest->label();
  if (o.seed) {
    std::cout << "\nheld-out shapes of seed " << *o.seed << ":";
    for (const auto& h : generate_heldout(t, *o.seed))
      std::cout << "\n  " << h.shape.label() << "  (" << h.category << ")";
  }
  std::cout << "\nfiles: " << (t.stub ? t.stub->filename().string() + " (spec2cuda stub), " : "")
            << t.starter.filename().string() << " (starter), " << t.reference.filename().string()
            << " (reference), " << t.baseline.filename().string() << " (baseline)"
            << (t.expert ? ", " + t.expert->filename().string() + " (expert)" : "") << "\n";
  return kExitCorrect;
}

// One task: every declared shape legal, tolerances sane, degenerate outputs rejected, and the
// starter judged correct against the reference on every visible shape, the largest legal one and
// the held-out shapes of `heldout_seeds` seeds.
std::vector<std::string> check_task(const std::string& id, const std::filesystem::path& root,
                                    const GlobalOptions& g, uint64_t seed, int heldout_seeds,
                                    std::string& reference_note) {
  std::vector<std::string> problems;
  Task t = load_task(resolve_task(id, root));
  for (const auto& s : t.visible)
    for (const auto& p : t.shape_problems(s))
      problems.push_back("visible shape " + s.label() + ": " + p);
  for (const auto& s : t.heldout.shapes) {
    for (const auto& p : t.shape_problems(s))
      problems.push_back("held-out shape " + s.label() + ": " + p);
    for (const auto& v : t.visible)
      if (v == s) problems.push_back("held-out shape " + s.label() + " is also visible");
  }
  for (const auto& p : audit_tolerances(t)) problems.push_back(p);
  if (!problems.empty()) return problems;

  auto backend = backend_for(t, g);
  for (const auto& s : t.visible)
    for (const auto& p : audit_degenerate_outputs(t, *backend, s, seed)) problems.push_back(p);
  if (t.host_reference) {
    auto host = backend_named("cpu", g);
    ReferenceValidation rv = validate_reference(t, *backend, *host, t.visible, seed);
    for (const auto& p : rv.problems) problems.push_back(p);
    reference_note =
        "fp64 host " + std::to_string(rv.checked.size()) + "/" + std::to_string(t.visible.size());
    if (!rv.freivalds.empty())
      reference_note += " + Freivalds " + std::to_string(rv.freivalds.size());
    if (rv.skipped.size() > rv.freivalds.size())
      reference_note +=
          " (" + std::to_string(rv.skipped.size() - rv.freivalds.size()) + " too large)";
  } else {
    reference_note = "no host reference";
  }

  // The starter is the baseline of every held-out eval: it must also hold at the largest shape
  // the held-out rules can draw (judged without timing, like the visible ones).
  JudgeOptions jo;
  for (const auto& s : t.visible) jo.shapes.push_back({s, "visible", ""});
  auto largest = largest_legal_shape(t);
  if (!largest)
    problems.push_back("no visible shape is legal, so the held-out rules have no largest shape");
  if (largest && std::find(t.visible.begin(), t.visible.end(), *largest) == t.visible.end())
    jo.shapes.push_back({*largest, "heldout", "largest"});
  jo.seed = seed;
  jo.timing = false;
  Verdict v = judge_solution(t, *backend, t.starter.string(), read_file(t.starter), jo);
  if (!v.compile.ok) problems.push_back("the starter does not compile:\n" + v.compile.log);
  for (const auto& s : v.shapes)
    if (!s.correct)
      problems.push_back("the starter fails at " +
                         std::string(s.category == "largest" ? "the largest legal shape " : "") +
                         s.shape.label() + ": " + std::string(failure_class_name(s.failure)) +
                         ": " + s.message);
  if (!v.internal_error.empty()) problems.push_back("internal error: " + v.internal_error);

  // The starter on the held-out shapes of several seeds, as `arena eval --shapes heldout` judges
  // them: drawn shapes (edge, asymmetric, ...) and input seeds that the visible shapes never try.
  const bool has_heldout = !t.heldout.shapes.empty() || t.heldout.count > 0;
  if (v.compile.ok && v.internal_error.empty() && has_heldout && heldout_seeds > 0) {
    std::vector<uint64_t> seeds;
    for (int k = 0; k < heldout_seeds; ++k) seeds.push_back(seed + static_cast<uint64_t>(k));
    auto progress = [&](const std::string& line) {
      if (!g.quiet) std::cerr << "  .. " << t.id << ": " << line << "\n";
    };
    for (const auto& p : audit_starter_heldout(t, *backend, seeds, progress)) problems.push_back(p);
  }

  // A spec2cuda stub compiles (the agent starts from it) and fails (it is not a solution).
  if (t.stub) {
    JudgeOptions so;
    so.shapes = {jo.shapes.front()};
    so.seed = seed;
    so.timing = false;
    Verdict sv = judge_solution(t, *backend, t.stub->string(), read_file(*t.stub), so);
    if (!sv.compile.ok)
      problems.push_back("the spec2cuda stub does not compile:\n" + sv.compile.log);
    else if (!sv.shapes.empty() && sv.shapes.front().correct)
      problems.push_back("the spec2cuda stub is judged correct at " +
                         sv.shapes.front().shape.label() + ": a stub must not solve the task");
  }
  return problems;
}

int run_check(const TasksOptions& o, const GlobalOptions& g) {
  auto root = tasks_root(g.tasks_dir);
  std::vector<std::string> ids = o.names.empty() ? ids_for(o, root) : o.names;
  if (ids.empty()) throw InputError("no tasks found in " + root.string());
  Table t({"task", "result", "reference validated", "seconds"});
  int failed = 0;
  std::string details;
  // One seed for every task: inputs of the visible checks, and the first of the held-out seeds
  // (seed, seed + 1, ...). Printed at the end, so that --seed repeats a run.
  const uint64_t seed = o.seed ? *o.seed : secret_seed();
  for (const auto& id : ids) {
    if (!g.quiet) std::cerr << "  .. checking " << id << "\n";
    double start = now_seconds();
    std::vector<std::string> problems;
    std::string reference_note = "-";
    try {
      problems = check_task(id, root, g, seed, o.heldout_seeds, reference_note);
    } catch (const InputError& e) {
      problems.push_back(e.what());
    }
    t.add_row({id, problems.empty() ? "ok" : std::to_string(problems.size()) + " problem(s)",
               reference_note, format_number(now_seconds() - start, 2)});
    if (!problems.empty()) ++failed;
    for (const auto& p : problems) details += "  " + id + ": " + p + "\n";
  }
  std::cout << t.render() << details;
  std::cout << (failed == 0 ? "all " + std::to_string(ids.size()) + " tasks are sound"
                            : std::to_string(failed) + " of " + std::to_string(ids.size()) +
                                  " tasks have problems")
            << " (seed " << seed
            << (o.heldout_seeds > 0
                    ? "; held-out shapes of seeds " + std::to_string(seed) + " to " +
                          std::to_string(seed + static_cast<uint64_t>(o.heldout_seeds - 1))
                    : std::string())
            << "; --seed repeats it)\n";
  return failed == 0 ? kExitCorrect : kExitNotCorrect;
}

}  // namespace

Runner add_tasks_command(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<TasksOptions>();
  CLI::App* cmd = app.add_subcommand("tasks", "List, show and check tasks");
  cmd->require_subcommand(1);
  CLI::App* list = cmd->add_subcommand("list", "List the tasks (of a suite)");
  list->add_option("--suite", o->suite, "Only the tasks of this suite (tasks/suites.yaml)");
  CLI::App* show = cmd->add_subcommand("show", "Show one task: signature, params, tensors, shapes");
  show->add_option("name", o->name, "Task name or directory")->required();
  show->add_option(
      "--seed", o->seed,
      "Also list the held-out shapes this seed draws (as arena eval --shapes heldout --seed)");
  CLI::App* check =
      cmd->add_subcommand("check",
                          "Prove tasks sound: legal shapes, sane tolerances, degenerate outputs "
                          "rejected, reference validated, starter == "
                          "reference on the visible shapes, the largest legal one and the held-out "
                          "shapes of several seeds");
  check->add_option("names", o->names, "Task names (default: all, or --suite)");
  check->add_option("--suite", o->suite, "Check the tasks of this suite");
  check
      ->add_option(
          "--heldout-seeds", o->heldout_seeds,
          "Seeds whose held-out shapes (and inputs) the starter is judged on; 0 skips that step")
      ->check(CLI::Range(0, 100))
      ->capture_default_str();
  check->add_option(
      "--seed", o->seed,
      "Seed of the inputs and the first held-out seed (default: a fresh one, printed at the end)");
  check->footer(
      "Exit codes: 0 all sound, 1 some task has problems, 2 input error, 3 internal error.");
  auto to = std::make_shared<TasksTableOptions>();
  CLI::App* table = cmd->add_subcommand("table",
                                        "Time each task's starter and expert at its largest "
                                        "visible shape: medians and roofline fractions");
  table->add_option("names", o->names, "Task names (default: all, or --suite)");
  table->add_option("--suite", o->suite, "The tasks of this suite");
  table->add_option("--markdown", to->markdown,
                    "Also write the table as a Markdown page (docs/tasks.md)");
  table->add_option("--json", to->json, "Also write every verdict as a JSON array");
  table->add_option("--max-time", to->max_time_s, "Seconds of timing per task at most")
      ->capture_default_str();
  table->add_option("--from", to->from,
                    "Render from saved verdicts (files written by --json; a later file's verdict "
                    "of a task replaces an "
                    "earlier one's) instead of judging: no device needed");
  table->footer(
      "Exit codes: 0 every starter judged and timed, 1 some failed, 2 input error, 3 internal "
      "error.");
  return [o, to, &global, list, show, check, table]() {
    if (list->parsed()) return run_list(*o, global);
    if (show->parsed()) return run_show(*o, global);
    if (table->parsed()) {
      auto root = tasks_root(global.tasks_dir);
      to->ids = o->names.empty() ? ids_for(*o, root) : o->names;
      to->suite = o->names.empty() ? o->suite : "";
      if (to->ids.empty()) throw InputError("no tasks found in " + root.string());
      return run_tasks_table(*to, global);
    }
    (void)check;
    return run_check(*o, global);
  };
}

}  // namespace arena::cli
