#include "agents/cli_agent.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>

#include "agents/agent_process.hpp"
#include "agents/agent_sandbox.hpp"
#include "agents/usage.hpp"
#include "arena/tool_protocol.hpp"
#include "core/error.hpp"
#include "core/subprocess.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;

// Where argv[0] is: looked up on `path` as execvp would (a name with a '/' is taken as it is,
// relative to the workspace); empty when it is nowhere.
fs::path find_program(const std::string& name, const std::string& path, const fs::path& cwd) {
  if (name.find('/') != std::string::npos) {
    fs::path p = fs::path(name).is_absolute() ? fs::path(name) : cwd / name;
    return access(p.c_str(), X_OK) == 0 ? p : fs::path();
  }
  size_t from = 0;
  for (;;) {
    size_t to = path.find(':', from);
    std::string dir = path.substr(from, to == std::string::npos ? std::string::npos : to - from);
    fs::path p = fs::path(dir.empty() ? "." : dir) / name;
    if (access(p.c_str(), X_OK) == 0 && !fs::is_directory(p)) return fs::absolute(p);
    if (to == std::string::npos) return {};
    from = to + 1;
  }
}

// A path of the config's sandbox binds: templates filled in, a leading ~ for $HOME.
fs::path bind_path(const std::string& text, const std::map<std::string, std::string>& vars) {
  std::string p = expand_template(text, vars);
  const char* home = std::getenv("HOME");
  if ((p == "~" || p.rfind("~/", 0) == 0) && home) p = home + p.substr(1);
  return fs::absolute(p).lexically_normal();
}

// The bubblewrap sandbox of one episode: the workspace, arena-tool and the tool socket; the
// agent's program and config folder read-only; the config's own binds. Binds arena adds itself
// that would show a hidden path are left out with a note; the config's are an error.
SandboxSpec sandbox_spec(const CliAgentConfig& config, const AgentContext& ctx,
                         const fs::path& program, const std::map<std::string, std::string>& vars,
                         std::ostream& log) {
  SandboxSpec s;
  s.workspace = ctx.workspace;
  s.network = ctx.sandbox.network;
  if (const char* home = std::getenv("HOME"); home && *home && !in_sandbox_system(home))
    s.home = home;
  if (ctx.sandbox.gpu) s.devices = gpu_device_nodes();
  s.binds.push_back({fs::canonical(ctx.tool_bin_dir / "arena-tool"),
                     ctx.tool_bin_dir / "arena-tool", false});
  s.binds.push_back({fs::path(ctx.tool_socket).parent_path(), {}, false});
  auto add_own = [&](const fs::path& dir, const std::string& what) {
    if (dir.empty() || in_sandbox_system(dir)) return;
    if (fs::path h = bind_exposes(dir, ctx.sandbox.hidden); !h.empty()) {
      log << "arena: sandbox: " << what << " " << dir.string() << " is not bound: it would show "
          << h.string() << " to the agent (move it to a folder of its own)\n";
      return;
    }
    s.binds.push_back({dir, {}, false});
  };
  add_own(fs::absolute(config.file).parent_path(), "the agent config's folder");
  add_own(program.parent_path(), "the agent program's folder");
  add_own(fs::canonical(program).parent_path(), "the agent program's folder");
  auto add_config = [&](const std::vector<std::string>& list, bool writable, const char* field) {
    for (const auto& text : list) {
      fs::path p = bind_path(text, vars);
      if (!fs::exists(p)) {
        log << "arena: sandbox: " << field << " " << p.string() << " does not exist: skipped\n";
        continue;
      }
      if (fs::path h = bind_exposes(p, ctx.sandbox.hidden); !h.empty())
        throw InputError(config.file.string() + ": field 'sandbox." + field + "': " + p.string() +
                         " would show " + h.string() +
                         " to the agent; bind something narrower");
      s.binds.push_back({p, {}, writable});
    }
  };
  add_config(config.sandbox_ro_binds, false, "ro_binds");
  add_config(config.sandbox_rw_binds, true, "rw_binds");
  return s;
}

// Once per run: whether bwrap works here; when it does not, a loud warning on the terminal.
const std::string& bwrap_problem(bool network) {
  static const std::string why = [network] {
    std::string w = probe_bwrap(network);
    if (!w.empty())
      std::cerr << "arena: WARNING: external agents run WITHOUT a sandbox: " << w
                << ". They can read the tasks directory and other runs, and run code on the GPU "
                   "outside the rounds. Install bubblewrap (scripts/setup.sh) and allow user "
                   "namespaces, or pass --sandbox none to say so.\n";
    return w;
  }();
  return why;
}

// Wraps `cmd` in the episode's sandbox when the run asks for bwrap and bwrap works here, and
// records in `out` what the agent runs in. Returns why the agent cannot be started, or "".
std::string enter_sandbox(AgentCommand& cmd, AgentOutcome& out, const CliAgentConfig& config,
                          const AgentContext& ctx, const std::map<std::string, std::string>& vars,
                          std::ostream& log) {
  out.sandbox = "none";
  out.agent_gpu = true;  // without a sandbox the agent sees the machine's devices
  if (ctx.sandbox.mode != "bwrap") {
    log << "arena: sandbox: none (--sandbox none): the agent sees the machine as the user does\n";
    return "";
  }
  if (const std::string& why = bwrap_problem(ctx.sandbox.network); !why.empty()) {
    log << "arena: WARNING: the agent runs WITHOUT a sandbox (sandbox: none): " << why << "\n";
    return "";
  }
  fs::path program = find_program(cmd.argv[0], cmd.env["PATH"], ctx.workspace);
  if (program.empty())
    return "cannot run '" + cmd.argv[0] + "': No such file or directory (on the agent's PATH)";
  try {
    SandboxSpec spec = sandbox_spec(config, ctx, program, vars, log);
    cmd.argv[0] = program.string();
    cmd.argv = bwrap_argv(spec, cmd.argv);
    cmd.env["TMPDIR"] = "/tmp";  // the sandbox's private one
    out.sandbox = "bwrap";
    out.agent_gpu = ctx.sandbox.gpu;
    log << "arena: sandbox: bwrap, " << spec.binds.size() << " binds, GPU device nodes "
        << (spec.devices.empty() ? "hidden" : "visible") << ", network "
        << (spec.network ? "shared" : "none") << "\n";
  } catch (const std::exception& e) {
    return std::string("the agent's sandbox: ") + e.what();
  }
  return "";
}

}  // namespace

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
  AgentOutcome out;
  {
    std::ofstream log(ctx.log_file, std::ios::app);
    out.infra_error = enter_sandbox(cmd, out, config_, ctx, vars, log);
    if (!out.infra_error.empty()) return out;
    log << "arena: starting " << config_.name << ": " << cmd.argv[0] << " (" << cmd.argv.size() - 1
        << " arguments) in " << ctx.workspace.string() << ", time limit " << ctx.time_limit_s
        << " s\n";
  }

  AgentExit e = run_agent_process(cmd);
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
