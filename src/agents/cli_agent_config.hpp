// An external CLI agent as a config file (agents/<name>.yaml, docs/episodes.md): its command
// template, environment, how it gets the prompt and how its usage (tokens, cost) is read from its
// output.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace arena {

// How to read one usage figure from the agent's output: a JSON path ("usage.input_tokens") looked
// up in the last output line that is a JSON object holding it, or a regex whose first group is
// the number (its last match counts).
struct UsageRule {
  std::string json_path;
  std::string regex;
};

struct CliAgentConfig {
  std::filesystem::path file;
  std::string name;
  bool untested = false;  // written from the agent's public docs, never run here
  std::vector<std::string>
      command;  // argv template: {workspace} {prompt_file} {prompt} {model} {solution}
                // {task} {rounds} {time_limit} {agent_dir} (the config's folder)
  std::vector<std::string> model_args;  // appended when a model is given, e.g. [--model, "{model}"]
  std::string model;                    // default model ("" = the agent's own default)
  std::string prompt_via = "arg";  // arg ({prompt} in the command) | file ({prompt_file}) | stdin
  std::map<std::string, std::string> env;  // set for the agent (templates allowed)
  std::map<std::string, UsageRule>
      usage;  // figure name (input_tokens, output_tokens, cost_usd...) -> rule
  // What the agent needs of the machine beyond its workspace inside the bubblewrap sandbox (its
  // credentials, its installation): paths (templates and a leading ~ allowed) bound read-only or
  // writable at the same place. Missing ones are skipped, with a note in agent.log.
  std::vector<std::string> sandbox_ro_binds;
  std::vector<std::string> sandbox_rw_binds;
};

// Loads and checks a config; throws InputError naming the file and field.
CliAgentConfig load_cli_agent_config(const std::filesystem::path& file);

// The agents directory: `override_dir`, else $ARENA_AGENTS_DIR, else the repository's agents/.
std::filesystem::path agents_root(const std::string& override_dir = "");

// Replaces {name} for every name in `vars`; other braces are left as they are.
std::string expand_template(const std::string& text,
                            const std::map<std::string, std::string>& vars);

}  // namespace arena
