#include "agents/cli_agent.hpp"

#include <cstdlib>
#include <fstream>

#include "agents/agent_process.hpp"
#include "agents/usage.hpp"
#include "arena/tool_protocol.hpp"
#include "core/subprocess.hpp"

namespace arena {

CliAgent::CliAgent(CliAgentConfig config, std::string model)
    : config_(std::move(config)), model_(std::move(model)) {
  if (model_.empty()) model_ = config_.model;
}

nlohmann::json CliAgent::describe() const {
  std::string command;
  for (const auto& a : config_.command) command += (command.empty() ? "" : " ") + a;
  return {{"name", config_.name}, {"config", config_.file.string()},
          {"model", model_},      {"untested", config_.untested},
          {"command", command},   {"prompt_via", config_.prompt_via}};
}

AgentOutcome CliAgent::run(const AgentContext& ctx) {
  std::string prompt = read_file(ctx.prompt_file);
  std::map<std::string, std::string> vars = {
      {"workspace", ctx.workspace.string()},
      {"prompt_file", ctx.prompt_file.string()},
      {"prompt", prompt},
      {"model", model_},
      {"solution", ctx.solution_file},
      {"task", ctx.task_id},
      {"agent_dir", std::filesystem::absolute(config_.file).parent_path().string()},
      {"rounds", std::to_string(ctx.rounds)},
      {"time_limit", std::to_string(static_cast<long>(ctx.time_limit_s))}};
  AgentCommand cmd;
  for (const auto& a : config_.command) cmd.argv.push_back(expand_template(a, vars));
  if (!model_.empty())
    for (const auto& a : config_.model_args) cmd.argv.push_back(expand_template(a, vars));
  for (const auto& [k, v] : config_.env) cmd.env[k] = expand_template(v, vars);
  const char* path = std::getenv("PATH");
  cmd.env["PATH"] = ctx.tool_bin_dir.string() + (path && *path ? std::string(":") + path : "");
  cmd.env[tool::kSocketEnv] = ctx.tool_socket;
  // The agent sees none of the harness's own settings (tasks directory, compile cache, ...).
  cmd.env_drop_prefixes = {"ARENA_"};
  cmd.cwd = ctx.workspace;
  cmd.log_file = ctx.log_file;
  if (config_.prompt_via == "stdin") cmd.stdin_text = prompt;
  cmd.time_limit_s = ctx.time_limit_s;
  cmd.interrupted = ctx.interrupted;
  {
    std::ofstream log(ctx.log_file, std::ios::app);
    log << "arena: starting " << config_.name << ": " << cmd.argv[0] << " (" << cmd.argv.size() - 1
        << " arguments) in " << ctx.workspace.string() << ", time limit " << ctx.time_limit_s
        << " s\n";
  }

  AgentExit e = run_agent_process(cmd);
  AgentOutcome out;
  out.exit_code = e.exit_code;
  out.signal = e.signal;
  out.time_limit_hit = e.time_limit_hit;
  out.interrupted = e.interrupted;
  out.infra_error = e.exec_error;
  std::ofstream log(ctx.log_file, std::ios::app);
  log << "arena: " << config_.name << " ended after " << e.seconds << " s: "
      << (!e.exec_error.empty() ? e.exec_error
          : e.time_limit_hit    ? "time limit reached, its process group was killed"
          : e.interrupted       ? "interrupted, its process group was killed"
          : e.exit_code         ? "exit code " + std::to_string(*e.exit_code)
                                : "killed by " + signal_description(e.signal))
      << "\n";
  log.close();
  if (!config_.usage.empty()) out.usage = parse_usage(read_file(ctx.log_file), config_.usage);
  return out;
}

}  // namespace arena
