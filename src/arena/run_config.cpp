#include "arena/run_config.hpp"

#include <yaml-cpp/yaml.h>

#include "core/error.hpp"
#include "core/subprocess.hpp"

namespace arena {

void write_run_config(const RunConfig& c, const std::filesystem::path& file) {
  YAML::Emitter y;
  y << YAML::BeginMap;
  y << YAML::Key << "schema" << YAML::Value << "kernelarena.run/1";
  y << YAML::Key << "run_id" << YAML::Value << c.run_id;
  y << YAML::Key << "created" << YAML::Value << c.created;
  y << YAML::Key << "agent" << YAML::Value << c.agent;
  y << YAML::Key << "model" << YAML::Value << c.model;
  y << YAML::Key << "from" << YAML::Value << c.from;
  y << YAML::Key << "endpoint" << YAML::Value << c.endpoint;
  y << YAML::Key << "api_key_env" << YAML::Value << c.api_key_env;
  y << YAML::Key << "agents_dir" << YAML::Value << c.agents_dir;
  y << YAML::Key << "suite" << YAML::Value << c.suite;
  y << YAML::Key << "tasks" << YAML::Value << YAML::Flow << c.tasks;
  y << YAML::Key << "tasks_dir" << YAML::Value << c.tasks_dir;
  y << YAML::Key << "num_iterations" << YAML::Value << c.num_iterations;
  y << YAML::Key << "repeats" << YAML::Value << c.repeats;
  y << YAML::Key << "time_limit_s" << YAML::Value << c.time_limit_s;
  y << YAML::Key << "final" << YAML::Value << c.final_mode;
  y << YAML::Key << "max_time_s" << YAML::Value << c.max_time_s;
  y << YAML::Key << "prompt_template" << YAML::Value << c.prompt_template;
  y << YAML::Key << "sandbox" << YAML::Value << c.sandbox;
  y << YAML::Key << "agent_gpu" << YAML::Value << c.agent_gpu;
  y << YAML::Key << "agent_network" << YAML::Value << c.agent_network;
  y << YAML::EndMap;
  write_file_atomic(file, std::string(y.c_str()) + "\n");
}

RunConfig read_run_config(const std::filesystem::path& file) {
  if (!std::filesystem::is_regular_file(file))
    throw InputError(file.string() + ": no such file (is this a run directory made by arena run?)");
  RunConfig c;
  std::string field;
  try {
    YAML::Node y = YAML::LoadFile(file.string());
    auto str = [&](const char* key, std::string& out) {
      field = key;
      if (y[key]) out = y[key].as<std::string>();
    };
    str("run_id", c.run_id);
    str("created", c.created);
    str("agent", c.agent);
    str("model", c.model);
    str("from", c.from);
    str("endpoint", c.endpoint);
    str("api_key_env", c.api_key_env);
    str("agents_dir", c.agents_dir);
    str("suite", c.suite);
    str("tasks_dir", c.tasks_dir);
    str("final", c.final_mode);
    str("prompt_template", c.prompt_template);
    str("sandbox", c.sandbox);
    str("agent_network", c.agent_network);
    field = "agent_gpu";
    if (y["agent_gpu"]) c.agent_gpu = y["agent_gpu"].as<bool>();
    field = "tasks";
    c.tasks = y["tasks"].as<std::vector<std::string>>();
    field = "num_iterations";
    c.num_iterations = y["num_iterations"].as<int>();
    field = "repeats";
    c.repeats = y["repeats"].as<int>();
    field = "time_limit_s";
    c.time_limit_s = y["time_limit_s"].as<double>();
    field = "max_time_s";
    c.max_time_s = y["max_time_s"].as<double>();
  } catch (const YAML::Exception& e) {
    throw InputError(file.string() + ": field '" + field + "': " + e.what());
  }
  if (c.agent.empty() || c.tasks.empty())
    throw InputError(file.string() + ": no agent or no tasks: not a run config");
  return c;
}

}  // namespace arena
