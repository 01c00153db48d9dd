// The external CLI adapter: runs an agent CLI (Claude Code, Codex, ...) as its config says, in its
// own process group in the workspace, with arena-tool on its PATH and the tool socket in its
// environment; at the time limit the whole group is killed. Its usage is read from its log.
#pragma once

#include "agents/agent.hpp"
#include "agents/cli_agent_config.hpp"

namespace arena {

class CliAgent : public Agent {
 public:
  CliAgent(CliAgentConfig config, std::string model);
  std::string name() const override { return config_.name; }
  AgentOutcome run(const AgentContext& ctx) override;
  nlohmann::json describe() const override;

 private:
  CliAgentConfig config_;
  std::string model_;
};

}  // namespace arena
