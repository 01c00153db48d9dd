// An external agent's process: started in a session (and process group) of its own, without a
// controlling terminal, with its environment, its working directory and its output in a log; at
// the time limit (or when the user interrupts) the whole group gets SIGTERM, then SIGKILL after a
// grace period, and nothing of it survives. After a normal exit, whatever the agent left running
// in its group is ended the same way.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace arena {

struct AgentCommand {
  std::vector<std::string> argv;               // argv[0] looked up on the agent's PATH
  std::map<std::string, std::string> env;      // set on top of the inherited environment
  std::vector<std::string> env_drop_prefixes;  // inherited variables dropped (e.g. "ARENA_")
  std::filesystem::path cwd;
  std::filesystem::path log_file;         // stdout and stderr, appended
  std::optional<std::string> stdin_text;  // else /dev/null
  double time_limit_s = 3600;
  double grace_s = 3;  // between SIGTERM and SIGKILL
  std::function<bool()> interrupted;
};

struct AgentExit {
  std::optional<int> exit_code;  // nullopt when killed by a signal
  int signal = 0;
  bool time_limit_hit = false;
  bool interrupted = false;
  std::string exec_error;  // the program could not be started (not found, not executable)
  double seconds = 0;
};

// Makes this process the reaper of its orphaned descendants, so an agent's children that outlive
// it are reaped here (call once, before starting agents).
void become_subreaper();

AgentExit run_agent_process(const AgentCommand& cmd);

}  // namespace arena
