// The config that makes a run, saved as run.yaml in its directory; `--resume` reads it back.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace arena {

struct RunConfig {
  std::string run_id;       // the run directory's name
  std::string created;      // UTC, ISO 8601
  std::string agent;        // reference | replay | llm | a config name or .yaml path
  std::string model;        // external agents, llm: --model
  std::string from;         // replay: --from
  std::string endpoint;     // llm: --endpoint
  std::string api_key_env;  // llm: --api-key-env, the variable's name (never the key)
  std::string agents_dir;
  std::string suite;               // when the tasks came from a suite
  std::vector<std::string> tasks;  // task ids
  std::string tasks_dir;
  int num_iterations = 10;  // rounds per episode
  int repeats = 1;
  double time_limit_s = 3600;       // wall time of an agent per episode
  std::string final_mode = "last";  // last | best
  double max_time_s = 2;            // the judge's timing budget per shape (rounds and final)
  std::string prompt_template;      // path; "" = agents/prompt.md
  // The external agent's sandbox (docs/episodes.md, "The sandbox"); built-in agents have none.
  std::string sandbox = "bwrap";           // bwrap | none
  bool agent_gpu = false;                  // GPU device nodes visible in the sandbox
  std::string agent_network = "shared";    // shared | none
};

void write_run_config(const RunConfig& c, const std::filesystem::path& file);
// Throws InputError naming the file and field.
RunConfig read_run_config(const std::filesystem::path& file);

}  // namespace arena
