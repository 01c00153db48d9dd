// An agent's usage (tokens, cost) read from its output by the rules of its config.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "agents/cli_agent_config.hpp"

namespace arena {

// {figure: number} for every rule that found its figure; null when none did.
nlohmann::json parse_usage(const std::string& output,
                           const std::map<std::string, UsageRule>& rules);

}  // namespace arena
