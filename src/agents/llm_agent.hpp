// The llm agent: any OpenAI-compatible chat endpoint as an agent. It sends the prompt and the
// workspace's files as chat messages; each reply's last fenced code block is the whole solution
// file, written to the workspace and judged as one round; the round's feedback is the next user
// message. One reply per round of the budget, within the time limit.
#pragma once

#include <string>

#include "agents/agent.hpp"

namespace arena {

struct LlmAgentOptions {
  std::string endpoint;                        // --endpoint: the API base, e.g. http://host:8000/v1
  std::string model;                           // --model
  std::string api_key_env = "OPENAI_API_KEY";  // --api-key-env: the variable holding the key
};

class LlmAgent : public Agent {
 public:
  // Throws InputError when the endpoint is not an http(s) URL or the model is missing.
  explicit LlmAgent(LlmAgentOptions options);
  std::string name() const override { return "llm"; }
  AgentOutcome run(const AgentContext& ctx) override;
  nlohmann::json describe() const override;

 private:
  LlmAgentOptions options_;
};

}  // namespace arena
