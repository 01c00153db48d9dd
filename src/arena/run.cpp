#include "arena/run.hpp"

#include <ctime>

#include "arena/episode.hpp"
#include "arena/episode_paths.hpp"
#include "arena/run_summary.hpp"
#include "core/error.hpp"
#include "core/json_text.hpp"
#include "core/subprocess.hpp"
#include "core/task_catalog.hpp"
#include "core/task_loader.hpp"

namespace arena {

std::string new_run_id(const std::string& agent) {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  std::string name = std::filesystem::path(agent).stem().string();
  return std::string(buf) + "-" + name;
}

void write_results(const std::filesystem::path& file, const RunConfig& c,
                   const std::vector<EpisodeResult>& episodes) {
  nlohmann::json eps = nlohmann::json::array();
  for (const auto& e : episodes) eps.push_back(episode_to_json(e));
  nlohmann::json j = {{"schema", "kernelarena.results/1"},
                      {"run_id", c.run_id},
                      {"config",
                       {{"agent", c.agent},
                        {"model", c.model},
                        {"tasks", c.tasks},
                        {"suite", c.suite},
                        {"num_iterations", c.num_iterations},
                        {"repeats", c.repeats},
                        {"time_limit_s", c.time_limit_s},
                        {"final", c.final_mode},
                        {"max_time_s", c.max_time_s},
                        {"sandbox", c.sandbox},
                        {"agent_gpu", c.agent_gpu},
                        {"agent_network", c.agent_network}}},
                      {"summary", run_summary_to_json(summarize_run(episodes))},
                      {"episodes", eps}};
  write_file_atomic(file, json_text(j, 2) + "\n");
}

RunOutcome run_all(const RunSetup& s) {
  RunOutcome out;
  std::filesystem::create_directories(s.dir / "episodes");
  if (!s.resume) write_run_config(s.config, s.dir / "run.yaml");
  const auto root = tasks_root(s.config.tasks_dir);
  for (const auto& id : s.config.tasks) {
    Task task = load_task(resolve_task(id, root));
    std::unique_ptr<Backend> backend;
    for (int repeat = 1; repeat <= s.config.repeats; ++repeat) {
      EpisodePaths paths(s.dir / "episodes" / episode_name(task.id, repeat));
      if (std::filesystem::exists(paths.result)) {
        out.episodes.push_back(episode_from_json(nlohmann::json::parse(read_file(paths.result))));
        ++out.skipped;
        if (s.progress)
          s.progress("[" + paths.dir.filename().string() + "] finished before: skipped");
        continue;
      }
      if (std::filesystem::exists(paths.dir)) {
        // An episode cut short (interrupted, or the machine went down): kept aside, done again.
        std::filesystem::path aside = paths.dir;
        aside += ".unfinished";
        std::filesystem::remove_all(aside);
        std::filesystem::rename(paths.dir, aside);
      }
      if (!backend) backend = s.backend_for(task);
      EpisodeSetup es;
      es.config = &s.config;
      es.backend = backend.get();
      es.agent = s.agent;
      es.prompt_template = s.prompt_template;
      es.prompt_template_name = s.prompt_template_name;
      es.arena_tool = s.arena_tool;
      es.progress = s.progress;
      es.interrupted = s.interrupted;
      if (s.progress)
        s.progress("[" + paths.dir.filename().string() + "] starting " + s.agent->name());
      auto result = run_episode(task, repeat, paths, es);
      if (!result) {
        out.interrupted = true;
        return out;
      }
      if (s.progress)
        s.progress("[" + result->name + "] " + result->outcome +
                   (result->infra_error.empty() ? "" : ": " + result->infra_error) + ", score " +
                   std::to_string(static_cast<int>(result->score)));
      out.episodes.push_back(*result);
      write_results(s.dir / "results.json", s.config, out.episodes);
    }
  }
  write_results(s.dir / "results.json", s.config, out.episodes);
  return out;
}

}  // namespace arena
