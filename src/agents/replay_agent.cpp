#include "agents/replay_agent.hpp"

#include <algorithm>
#include <fstream>

#include "core/error.hpp"
#include "core/subprocess.hpp"

namespace arena {

ReplayAgent::ReplayAgent(std::filesystem::path from) : from_(std::move(from)) {
  if (!std::filesystem::is_directory(from_))
    throw InputError("--from '" + from_.string() +
                     "': no such directory (give a folder of solution files, an episode "
                     "directory or a run directory)");
}

std::vector<std::filesystem::path> ReplayAgent::files_for(const std::string& episode) const {
  std::filesystem::path dir = from_;
  if (std::filesystem::is_directory(from_ / "episodes"))
    dir = from_ / "episodes" / episode / "snapshots";
  else if (std::filesystem::is_directory(from_ / "snapshots"))
    dir = from_ / "snapshots";
  std::vector<std::filesystem::path> files;
  if (std::filesystem::is_directory(dir))
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  if (files.empty())
    throw InputError("--from: " + dir.string() + " holds no solution file to replay");
  return files;
}

AgentOutcome ReplayAgent::run(const AgentContext& ctx) {
  std::ofstream log(ctx.log_file, std::ios::app);
  for (const auto& f : files_for(ctx.episode)) {
    if (ctx.interrupted && ctx.interrupted()) break;
    std::string source = read_file(f);
    write_file_atomic(ctx.workspace / ctx.solution_file, source);
    tool::Reply r = ctx.submit(ctx.solution_file, source);
    log << "replay: " << f.string() << ": exit code " << r.exit_code << "\n" << r.text;
    if (r.exit_code == tool::kExitBudgetExhausted) break;
  }
  AgentOutcome out;
  out.exit_code = 0;
  return out;
}

}  // namespace arena
