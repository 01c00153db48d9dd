// The reference agent: submits the starter, as it is, in one round. A floor for every metric
// and the quickest way to check that episodes work end to end.
#pragma once

#include "agents/agent.hpp"

namespace arena {

class ReferenceAgent : public Agent {
 public:
  std::string name() const override { return "reference"; }
  AgentOutcome run(const AgentContext& ctx) override;
};

}  // namespace arena
