#include "agents/cli_agent_config.hpp"

#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <regex>

#include "core/error.hpp"

#ifndef ARENA_DEFAULT_AGENTS_DIR
#define ARENA_DEFAULT_AGENTS_DIR "agents"
#endif

namespace arena {
namespace {

std::vector<std::string> string_list(const YAML::Node& n, const std::string& where) {
  if (!n.IsSequence()) throw InputError(where + ": must be a list of strings");
  std::vector<std::string> out;
  for (const auto& e : n) out.push_back(e.as<std::string>());
  return out;
}

}  // namespace

std::filesystem::path agents_root(const std::string& override_dir) {
  if (!override_dir.empty()) return override_dir;
  if (const char* env = std::getenv("ARENA_AGENTS_DIR"); env && *env) return env;
  return ARENA_DEFAULT_AGENTS_DIR;
}

std::string expand_template(const std::string& text,
                            const std::map<std::string, std::string>& vars) {
  std::string out = text;
  for (const auto& [k, v] : vars) {
    std::string key = "{" + k + "}";
    for (size_t at = out.find(key); at != std::string::npos; at = out.find(key, at + v.size()))
      out.replace(at, key.size(), v);
  }
  return out;
}

CliAgentConfig load_cli_agent_config(const std::filesystem::path& file) {
  CliAgentConfig c;
  c.file = file;
  const std::string where = file.string();
  YAML::Node y;
  try {
    y = YAML::LoadFile(file.string());
  } catch (const YAML::Exception& e) {
    throw InputError(where + ": cannot read this agent config: " + e.what());
  }
  if (!y.IsMap()) throw InputError(where + ": an agent config is a mapping (name, command, ...)");
  try {
    c.name = y["name"] ? y["name"].as<std::string>() : file.stem().string();
    c.untested = y["untested"] && y["untested"].as<bool>();
    if (!y["command"])
      throw InputError(where + ": field 'command' is missing (the agent's argv, a list)");
    c.command = string_list(y["command"], where + ": field 'command'");
    if (c.command.empty()) throw InputError(where + ": field 'command' is empty");
    if (y["model_args"])
      c.model_args = string_list(y["model_args"], where + ": field 'model_args'");
    if (y["model"]) c.model = y["model"].as<std::string>();
    if (y["prompt_via"]) c.prompt_via = y["prompt_via"].as<std::string>();
    if (y["env"])
      for (const auto& kv : y["env"])
        c.env[kv.first.as<std::string>()] = kv.second.as<std::string>();
    if (y["usage"])
      for (const auto& kv : y["usage"]) {
        auto figure = kv.first.as<std::string>();
        UsageRule r;
        if (kv.second["json"]) r.json_path = kv.second["json"].as<std::string>();
        if (kv.second["regex"]) r.regex = kv.second["regex"].as<std::string>();
        if (r.json_path.empty() == r.regex.empty())
          throw InputError(where + ": field 'usage." + figure +
                           "': give exactly one of 'json' (a path) or 'regex'");
        if (!r.regex.empty()) try {
            std::regex re(r.regex);
            if (re.mark_count() < 1)
              throw InputError(where + ": field 'usage." + figure +
                               ".regex' needs a group for the number");
          } catch (const std::regex_error& e) {
            throw InputError(where + ": field 'usage." + figure + ".regex': " + e.what());
          }
        c.usage[figure] = r;
      }
    if (const YAML::Node sb = y["sandbox"]) {
      if (!sb.IsMap())
        throw InputError(where + ": field 'sandbox' is a mapping (ro_binds, rw_binds)");
      for (const auto& kv : sb) {
        auto key = kv.first.as<std::string>();
        if (key != "ro_binds" && key != "rw_binds")
          throw InputError(where + ": field 'sandbox." + key + "': unknown (ro_binds, rw_binds)");
      }
      if (sb["ro_binds"])
        c.sandbox_ro_binds = string_list(sb["ro_binds"], where + ": field 'sandbox.ro_binds'");
      if (sb["rw_binds"])
        c.sandbox_rw_binds = string_list(sb["rw_binds"], where + ": field 'sandbox.rw_binds'");
    }
  } catch (const YAML::Exception& e) {
    throw InputError(where + ": " + e.what());
  }
  auto uses = [&](const std::string& key) {
    for (const auto& a : c.command)
      if (a.find(key) != std::string::npos) return true;
    return false;
  };
  if (c.prompt_via == "arg" && !uses("{prompt}"))
    throw InputError(where + ": prompt_via 'arg' needs {prompt} in the command");
  if (c.prompt_via == "file" && !uses("{prompt_file}"))
    throw InputError(where + ": prompt_via 'file' needs {prompt_file} in the command");
  if (c.prompt_via != "arg" && c.prompt_via != "file" && c.prompt_via != "stdin")
    throw InputError(where + ": field 'prompt_via' is '" + c.prompt_via + "' (arg, file or stdin)");
  return c;
}

}  // namespace arena
