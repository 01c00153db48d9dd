#include "agents/reference_agent.hpp"

#include <fstream>

#include "core/subprocess.hpp"

namespace arena {

AgentOutcome ReferenceAgent::run(const AgentContext& ctx) {
  std::ofstream log(ctx.log_file, std::ios::app);
  tool::Reply r = ctx.submit(ctx.solution_file, read_file(ctx.workspace / ctx.solution_file));
  log << "reference: submitted " << ctx.solution_file << " (the starter): exit code " << r.exit_code
      << "\n"
      << r.text;
  AgentOutcome out;
  out.exit_code = 0;
  return out;
}

}  // namespace arena
