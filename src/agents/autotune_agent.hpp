// The autotune agent: searches the knobs the solution declares (agents/knobs.hpp), one setting
// per round, in the order of KnobSearch (the declared setting first). Each setting is written into
// the workspace's solution file and submitted; the best correct one (highest geomean speedup on
// the visible shapes) is left in the workspace at the end. Under `--final last` it keeps one round
// to submit the best setting again as the last round when the last one tried was not the best,
// so either final mode judges the best setting. A solution without knobs is submitted once.
#pragma once

#include "agents/agent.hpp"

namespace arena {

class AutotuneAgent : public Agent {
 public:
  std::string name() const override { return "autotune"; }
  AgentOutcome run(const AgentContext& ctx) override;
};

}  // namespace arena
