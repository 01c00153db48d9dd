#include "agents/agent_registry.hpp"

#include <algorithm>
#include <vector>

#include "agents/autotune_agent.hpp"
#include "agents/cli_agent.hpp"
#include "agents/llm_agent.hpp"
#include "agents/reference_agent.hpp"
#include "agents/replay_agent.hpp"
#include "core/error.hpp"

namespace arena {

std::unique_ptr<Agent> make_agent(const AgentOptions& o) {
  if (o.name != "replay" && !o.from.empty())
    throw InputError("--from goes with --agent replay only");
  if (o.name != "llm" && (!o.endpoint.empty() || !o.api_key_env.empty()))
    throw InputError("--endpoint and --api-key-env go with --agent llm only");
  if (o.name == "reference") return std::make_unique<ReferenceAgent>();
  if (o.name == "autotune") return std::make_unique<AutotuneAgent>();
  if (o.name == "replay") {
    if (o.from.empty())
      throw InputError("--agent replay needs --from DIR (solution files, an episode or a run)");
    return std::make_unique<ReplayAgent>(o.from);
  }
  if (o.name == "llm")
    return std::make_unique<LlmAgent>(LlmAgentOptions{o.endpoint, o.model, o.api_key_env});
  std::filesystem::path root = agents_root(o.agents_dir);
  std::filesystem::path file =
      o.name.ends_with(".yaml") ? std::filesystem::path(o.name) : root / (o.name + ".yaml");
  if (!std::filesystem::is_regular_file(file)) {
    const std::vector<std::string> built_in = {"reference", "replay", "autotune", "llm"};
    std::vector<std::string> names = built_in;
    if (std::filesystem::is_directory(root))
      for (const auto& e : std::filesystem::directory_iterator(root))
        if (e.path().extension() == ".yaml") names.push_back(e.path().stem().string());
    std::sort(names.begin() + built_in.size(), names.end());
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw InputError("--agent '" + o.name + "': no such agent (" + file.string() +
                     " does not exist); agents: " + list);
  }
  return std::make_unique<CliAgent>(load_cli_agent_config(file), o.model);
}

}  // namespace arena
