#include "arena/episode.hpp"

#include <algorithm>
#include <fstream>

#include "arena/hardware_sheet.hpp"
#include "core/json_text.hpp"
#include "judge/shape_selection.hpp"
#include "arena/prompt.hpp"
#include "arena/rounds.hpp"
#include "arena/tool_server.hpp"
#include "arena/workspace.hpp"
#include "core/error.hpp"
#include "core/signature.hpp"
#include "core/task_catalog.hpp"
#include "core/subprocess.hpp"
#include "judge/judge.hpp"
#include "judge/random.hpp"
#include "judge/verdict_json.hpp"

namespace arena {
namespace {

// The final solution: the last judged round's snapshot, or with --final best the best round's;
// the workspace's file when the agent had no round judged.
std::string final_source(EpisodeResult& r, const std::vector<RoundRecord>& rounds,
                         const EpisodePaths& paths, const std::string& solution_file) {
  auto last = std::find_if(rounds.rbegin(), rounds.rend(), judged);
  if (last == rounds.rend()) return read_file(paths.workspace / solution_file);
  r.final_round = last->round;
  if (r.final_mode == "best" && r.best_round) r.final_round = r.best_round;
  return read_file(paths.dir / rounds[*r.final_round - 1].snapshot);
}

void judge_final(EpisodeResult& r, const Task& task, const std::string& source,
                 const std::string& name, const EpisodePaths& paths, const EpisodeSetup& s,
                 RunnerPool& runners) {
  JudgeOptions jo;
  jo.runners = &runners;  // the last round left them started
  jo.start_next_runners = false;
  jo.seed = secret_seed();  // fresh, never seen by the agent; recorded once the judging is done
  jo.shapes = select_shapes(task, "all", jo.seed);
  jo.stopping.max_seconds = s.config->max_time_s;
  Verdict v = judge_solution(task, *s.backend, name, source, jo);
  write_file_atomic(paths.final_verdict, json_text(verdict_to_json(v), 2) + "\n");
  add_final_verdict(r, v);
  if (!v.internal_error.empty()) {
    r.outcome = "infra_error";
    r.infra_error = "final judging: " + v.internal_error;
  }
}

// The run's sandbox for the agent: what it must never see is the tasks directory (references,
// held-out rules) and the runs directory (other episodes, this episode's records).
SandboxRequest sandbox_request(const RunConfig& c, const EpisodePaths& paths) {
  SandboxRequest q;
  q.mode = c.sandbox;
  q.gpu = c.agent_gpu;
  q.network = c.agent_network != "none";
  std::filesystem::path run_dir = std::filesystem::absolute(paths.dir).parent_path().parent_path();
  q.hidden = {std::filesystem::absolute(tasks_root(c.tasks_dir)), run_dir.parent_path()};
  return q;
}

}  // namespace

std::map<std::string, std::string> prompt_variables(const Task& task, const RunConfig& config) {
  WorkspaceFiles f = workspace_files(task);
  SignatureFlavor flavor = task.backend == "cuda" ? SignatureFlavor::kCuda : SignatureFlavor::kCpu;
  return {{"task", task.id},
          {"description", task.description},
          {"backend", task.backend},
          {"solution_file", f.solution},
          {"signature", signature_declaration(task, flavor)},
          {"rounds", std::to_string(config.num_iterations)},
          {"time_limit_minutes", std::to_string(static_cast<long>(config.time_limit_s / 60))},
          {"time_limit_seconds", std::to_string(static_cast<long>(config.time_limit_s))},
          {"readme_file", f.readme},
          {"header_file", f.header},
          {"shapes_file", f.shapes},
          {"hardware_file", f.hardware}};
}

std::optional<EpisodeResult> run_episode(const Task& task, int repeat, const EpisodePaths& paths,
                                         const EpisodeSetup& s) {
  const double start = now_seconds();
  EpisodeResult r;
  r.name = paths.dir.filename().string();
  r.task = task.id;
  r.repeat = repeat;
  r.agent = s.agent->name();
  r.rounds_limit = s.config->num_iterations;
  r.final_mode = s.config->final_mode;
  try {
    std::filesystem::create_directories(paths.snapshots);
    std::filesystem::create_directories(paths.verdicts);
    std::filesystem::create_directories(paths.bin);
    std::string prompt =
        render_prompt(s.prompt_template, prompt_variables(task, *s.config), s.prompt_template_name);
    prepare_workspace(task, paths.workspace, hardware_sheet(*s.backend), prompt);
    if (!std::filesystem::is_regular_file(s.arena_tool))
      throw InternalError("arena-tool is missing: " + s.arena_tool.string() +
                          " (build the arena-tool target)");
    std::filesystem::create_symlink(s.arena_tool, paths.bin / "arena-tool");
    std::ofstream(paths.trajectory, std::ios::app).close();

    const std::string solution_file = workspace_files(task).solution;
    RoundsSetup rs;
    rs.task = &task;
    rs.backend = s.backend;
    rs.paths = paths;
    rs.solution_file = solution_file;
    rs.limit = s.config->num_iterations;
    rs.max_time_s = s.config->max_time_s;
    rs.start_seconds = start;
    rs.on_round = [&](const RoundRecord& round, int limit) {
      if (s.progress)
        s.progress("[" + r.name + "] round " + std::to_string(round.round) + "/" +
                   std::to_string(limit) + ": " + round_brief(round));
    };
    Rounds rounds(rs);
    ToolServer server([&rounds](const nlohmann::json& request) { return rounds.handle(request); });

    AgentContext ctx;
    ctx.task_id = task.id;
    ctx.repeat = repeat;
    ctx.episode = r.name;
    ctx.workspace = paths.workspace;
    ctx.solution_file = solution_file;
    ctx.prompt_file = paths.workspace / workspace_files(task).prompt;
    ctx.log_file = paths.agent_log;
    ctx.tool_bin_dir = paths.bin;
    ctx.tool_socket = server.socket_path();
    ctx.rounds = s.config->num_iterations;
    ctx.time_limit_s = s.config->time_limit_s;
    ctx.final_mode = s.config->final_mode;
    ctx.submit = [&rounds](const std::string& file, const std::string& source) {
      return rounds.eval(file, source);
    };
    ctx.interrupted = s.interrupted;
    ctx.sandbox = sandbox_request(*s.config, paths);
    AgentOutcome out = s.agent->run(ctx);
    server.stop();
    if (out.interrupted || (s.interrupted && s.interrupted())) return std::nullopt;

    auto records = rounds.records();
    add_round_figures(r, records);
    r.rounds_refused = rounds.refused();
    r.agent_exit_code = out.exit_code;
    r.agent_signal = out.signal;
    r.time_limit_hit = out.time_limit_hit;
    r.usage = out.usage;
    r.sandbox = out.sandbox;
    r.agent_gpu = out.agent_gpu;
    if (!out.infra_error.empty()) {
      r.outcome = "infra_error";
      r.infra_error = out.infra_error;
    } else {
      std::string source = final_source(r, records, paths, solution_file);
      judge_final(r, task, source, solution_file, paths, s, rounds.runners());
    }
  } catch (const std::exception& e) {
    r.outcome = "infra_error";
    r.infra_error = e.what();
  }
  r.seconds = now_seconds() - start;
  write_file_atomic(paths.result, json_text(episode_to_json(r), 2) + "\n");
  return r;
}

}  // namespace arena
