// An agent turns a task workspace into a solution over rounds. Built-in agents (reference,
// replay) run inside `arena run` and submit rounds directly; external CLI agents run as a process
// group of their own and submit through arena-tool. Both reach the same Rounds.
#pragma once

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "agents/agent_sandbox.hpp"
#include "arena/tool_protocol.hpp"

namespace arena {

struct AgentContext {
  std::string task_id;
  int repeat = 1;
  std::string episode;  // the episode's folder name
  std::filesystem::path workspace;
  std::string solution_file;           // its name in the workspace
  std::filesystem::path prompt_file;   // PROMPT.md in the workspace
  std::filesystem::path log_file;      // agent.log
  std::filesystem::path tool_bin_dir;  // holds arena-tool; first on the agent's PATH
  std::string tool_socket;             // $ARENA_TOOL_SOCKET
  int rounds = 10;
  double time_limit_s = 3600;
  std::string final_mode = "last";  // which round is judged at the end: last | best (--final)
  // One round, in-process (what arena-tool eval does through the socket).
  std::function<tool::Reply(const std::string& file, const std::string& source)> submit;
  std::function<bool()> interrupted;  // the user asked arena run to stop
  SandboxRequest sandbox;             // external agents: their sandbox (built-in ones have none)
};

struct AgentOutcome {
  std::optional<int> exit_code;  // external agents: the process's; nullopt when killed
  int signal = 0;
  bool time_limit_hit = false;
  bool interrupted = false;
  std::string infra_error;         // the harness could not run the agent (binary missing...)
  nlohmann::json usage = nullptr;  // tokens and cost, where the agent reports them
  std::string sandbox = "none";    // what the agent ran in: bwrap | none (built-in agents: none)
  bool agent_gpu = false;          // the GPU device nodes were visible to the agent
};

class Agent {
 public:
  virtual ~Agent() = default;
  virtual std::string name() const = 0;
  virtual AgentOutcome run(const AgentContext& ctx) = 0;
  // What the run records about it (run.yaml).
  virtual nlohmann::json describe() const { return {{"name", name()}}; }
};

}  // namespace arena
