// arena run: agents on tasks under a budget of rounds and wall time, each episode in a run
// directory with its trajectory, then a summary (docs/episodes.md).

#include <signal.h>  // NOLINT(modernize-deprecated-headers): sigaction, sigset_t are POSIX

#include <atomic>
#include <iostream>

#include "agents/agent_process.hpp"
#include "agents/agent_registry.hpp"
#include "agents/cli_agent_config.hpp"
#include "arena/episode.hpp"
#include "arena/prompt.hpp"
#include "arena/run.hpp"
#include "arena/run_summary.hpp"
#include "cli/commands.hpp"
#include "cli/context.hpp"
#include "core/error.hpp"
#include "core/subprocess.hpp"
#include "core/task_catalog.hpp"
#include "core/task_loader.hpp"

namespace arena::cli {
namespace {

constexpr int kExitInterrupted = 130;

std::atomic<bool> g_interrupted{false};
extern "C" void on_interrupt(int) {
  g_interrupted = true;
}

struct RunOptions {
  RunConfig config;
  std::vector<std::string> tasks;
  std::string report;
  std::string resume;
  std::string runs_dir = "runs";
};

// The config of a new run from the options, or of the resumed one from its run.yaml.
RunConfig resolve_config(RunOptions& o, const GlobalOptions& global) {
  if (!o.resume.empty()) {
    if (!o.config.agent.empty() || !o.tasks.empty() || !o.config.suite.empty())
      throw InputError(
          "--resume RUN_DIR takes the run's own config (run.yaml): give no --agent, --task or "
          "--suite");
    return read_run_config(std::filesystem::path(o.resume) / "run.yaml");
  }
  RunConfig c = o.config;
  if (c.agent.empty())
    throw InputError(
        "--agent is required (reference, replay, autotune, llm, or an agent config in agents/)");
  if (o.tasks.empty() == c.suite.empty())
    throw InputError("give --task (repeatable) or --suite, one of them");
  c.tasks_dir = global.tasks_dir;
  auto root = tasks_root(global.tasks_dir);
  if (!c.suite.empty()) {
    auto suites = load_suites(root);
    auto it = suites.find(c.suite);
    if (it == suites.end())
      throw InputError("--suite '" + c.suite + "': no such suite in " +
                       (root / "suites.yaml").string());
    o.tasks = it->second;
  }
  for (const auto& t : o.tasks) c.tasks.push_back(load_task(resolve_task(t, root)).id);
  if (!c.from.empty()) c.from = std::filesystem::absolute(c.from).string();
  if (!c.prompt_template.empty())
    c.prompt_template = std::filesystem::absolute(c.prompt_template).string();
  if (c.agent.ends_with(".yaml")) c.agent = std::filesystem::absolute(c.agent).string();
  if (c.agent == "llm" && c.api_key_env.empty()) c.api_key_env = "OPENAI_API_KEY";
  c.run_id = new_run_id(c.agent);
  c.created = utc_now_iso();
  return c;
}

int run_run(RunOptions& o, const GlobalOptions& global) {
  RunConfig c = resolve_config(o, global);
  std::filesystem::path dir = o.resume.empty() ? std::filesystem::path(o.runs_dir) / c.run_id
                                               : std::filesystem::path(o.resume);
  if (o.resume.empty() && std::filesystem::exists(dir))
    throw InputError(dir.string() + " exists already");
  GlobalOptions g = global;
  g.tasks_dir = c.tasks_dir;

  // Every task's backend must run here, before the first agent starts.
  auto root = tasks_root(c.tasks_dir);
  for (const auto& id : c.tasks) {
    Task t = load_task(resolve_task(id, root));
    if (std::string why = backend_for(t, g)->unavailable(); !why.empty())
      throw InputError("cannot run " + t.backend + " solutions on this machine (" + id +
                       "): " + why);
  }
  std::filesystem::path templ_file = c.prompt_template.empty()
                                         ? agents_root(c.agents_dir) / "prompt.md"
                                         : std::filesystem::path(c.prompt_template);
  std::string templ = read_file(templ_file);
  render_prompt(templ, prompt_variables(load_task(resolve_task(c.tasks.front(), root)), c),
                templ_file.string());

  auto agent = make_agent({.name = c.agent,
                           .model = c.model,
                           .from = c.from,
                           .agents_dir = c.agents_dir,
                           .endpoint = c.endpoint,
                           .api_key_env = c.api_key_env});

  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);
  become_subreaper();

  RunSetup s;
  s.config = c;
  s.dir = dir;
  s.resume = !o.resume.empty();
  s.agent = agent.get();
  s.backend_for = [g](const Task& t) { return backend_for(t, g); };
  s.prompt_template = templ;
  s.prompt_template_name = templ_file.string();
  s.arena_tool = executable_dir() / "arena-tool";
  if (!global.quiet)
    s.progress = [](const std::string& line) { std::cerr << "  .. " << line << "\n"; };
  s.interrupted = [] { return g_interrupted.load(); };
  if (!global.quiet)
    std::cerr << "run " << dir.string() << ": " << c.tasks.size() << " task(s) x " << c.repeats
              << " repeat(s), agent " << agent->name() << ", " << c.num_iterations << " round(s)\n";

  RunOutcome out = run_all(s);
  std::cout << "run " << dir.string() << "\n"
            << render_run(out.episodes, summarize_run(out.episodes));
  if (out.skipped) std::cout << out.skipped << " episode(s) finished before the resume, kept\n";
  if (!o.report.empty()) write_results(o.report, c, out.episodes);
  if (out.interrupted) {
    std::cerr << "interrupted: the unfinished episode has no episode.json; `arena run --resume "
              << dir.string() << "` does it again\n";
    return kExitInterrupted;
  }
  for (const auto& e : out.episodes)
    if (e.outcome == "infra_error") return kExitInternalError;
  return kExitCorrect;
}

}  // namespace

Runner add_run_command(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand(
      "run",
      "Run an agent on tasks: episodes under a budget of rounds, recorded in a run directory");
  cmd->add_option(
      "--agent", o->config.agent,
      "reference, replay, autotune (searches the starter's knobs), llm (an OpenAI-compatible "
      "endpoint), or an external agent: a config in "
      "agents/ (claude-code...) or a .yaml");
  cmd->add_option("-t,--task", o->tasks, "A task (repeatable)");
  cmd->add_option("--suite", o->config.suite, "Every task of a suite (tasks/suites.yaml)");
  cmd->add_option("--num-iterations", o->config.num_iterations,
                  "Rounds (arena-tool eval calls) per episode")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--repeats", o->config.repeats, "Episodes per task")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--time-limit", o->config.time_limit_s,
                  "Wall seconds per episode for the agent; then its process group is killed")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option(
         "--final", o->config.final_mode,
         "Which round's solution is judged at the end: last, or best (best visible result)")
      ->check(CLI::IsMember({"last", "best"}))
      ->capture_default_str();
  cmd->add_option("--max-time", o->config.max_time_s,
                  "The judge's timing budget per shape, in rounds and the final judging")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--model", o->config.model,
                  "The model an external agent uses (its config's model_args), or llm's");
  cmd->add_option("--from", o->config.from,
                  "replay: a folder of solution files, an episode directory or a run directory");
  cmd->add_option("--endpoint", o->config.endpoint,
                  "llm: an OpenAI-compatible API base (http://127.0.0.1:8000/v1); the agent POSTs "
                  "to ENDPOINT/chat/completions");
  cmd->add_option("--api-key-env", o->config.api_key_env,
                  "llm: the environment variable holding the API key (default OPENAI_API_KEY); "
                  "the key is never written to the run directory");
  cmd->add_option("--agents-dir", o->config.agents_dir,
                  "Where agent configs and prompt.md are (default: $ARENA_AGENTS_DIR or agents/)");
  cmd->add_option("--prompt", o->config.prompt_template,
                  "A prompt template instead of agents/prompt.md");
  cmd->add_option("--sandbox", o->config.sandbox,
                  "External agents run in a bubblewrap sandbox (bwrap), or as the user does "
                  "(none); without a working bwrap, none with a warning")
      ->check(CLI::IsMember({"bwrap", "none"}))
      ->capture_default_str();
  cmd->add_flag(
      "--agent-gpu", o->config.agent_gpu,
      "Let a sandboxed agent see the GPU device nodes (by default only rounds run on it)");
  cmd->add_option("--agent-network", o->config.agent_network,
                  "A sandboxed agent's network: shared (it needs its API endpoint) or none")
      ->check(CLI::IsMember({"shared", "none"}))
      ->capture_default_str();
  cmd->add_option("--report", o->report, "Also write results.json to FILE");
  cmd->add_option("--resume", o->resume,
                  "Continue the run in RUN_DIR: finished episodes are kept, the others run");
  cmd->add_option("--runs-dir", o->runs_dir, "Where new run directories go")->capture_default_str();
  cmd->footer(
      "Exit codes: 0 every episode finished, 2 input error, 3 an episode ended in infra_error, 130 "
      "interrupted.");
  return [o, &global] { return run_run(*o, global); };
}

}  // namespace arena::cli
