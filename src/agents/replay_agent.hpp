// The replay agent: submits a folder of solution files in name order, one per round, each copied
// into the workspace first. Given a recorded run (a directory with episodes/) it replays the
// snapshots of the episode with the same name, which re-scores that run's trajectories; given an
// episode directory, its snapshots/.
#pragma once

#include <filesystem>
#include <vector>

#include "agents/agent.hpp"

namespace arena {

class ReplayAgent : public Agent {
 public:
  explicit ReplayAgent(std::filesystem::path from);
  std::string name() const override { return "replay"; }
  AgentOutcome run(const AgentContext& ctx) override;
  nlohmann::json describe() const override { return {{"name", name()}, {"from", from_.string()}}; }

  // The files an episode replays, in order; throws InputError when there are none.
  std::vector<std::filesystem::path> files_for(const std::string& episode) const;

 private:
  std::filesystem::path from_;
};

}  // namespace arena
