// Agents by name: the built-in `reference`, `replay`, `autotune` and `llm`, else an external CLI
// agent whose config is agents/<name>.yaml (or a path to a .yaml file).
#pragma once

#include <memory>
#include <string>

#include "agents/agent.hpp"

namespace arena {

struct AgentOptions {
  std::string name;         // --agent
  std::string model;        // --model (external agents, llm)
  std::string from;         // --from (replay)
  std::string agents_dir;   // where configs are looked up
  std::string endpoint;     // --endpoint (llm)
  std::string api_key_env;  // --api-key-env (llm): the variable that holds the API key
};

// Throws InputError for an unknown agent, naming the built-ins and the configs that exist.
std::unique_ptr<Agent> make_agent(const AgentOptions& o);

}  // namespace arena
