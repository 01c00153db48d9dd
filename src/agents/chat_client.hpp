// A client of an OpenAI-compatible chat endpoint (OpenAI, vLLM, SGLang, llama.cpp, Ollama ...):
// one POST of {model, messages} to {endpoint}/chat/completions over libcurl, the reply's text and
// token counts back. Every failure is a result with a message naming the endpoint, never a throw.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace arena {

struct ChatReply {
  enum class Status {
    kOk,
    kFailed,       // unreachable, an HTTP error, or a body that is not a chat completion
    kTimedOut,     // the deadline passed before the reply came
    kInterrupted,  // `interrupted` said stop
  };
  Status status = Status::kFailed;
  std::string content;        // choices[0].message.content ("" when null)
  std::string finish_reason;  // "stop", "length" ...
  long prompt_tokens = 0;     // the reply's usage; 0 when it has none
  long completion_tokens = 0;
  bool has_usage = false;
  std::string error;  // what went wrong and what to do (kFailed, kTimedOut)
};

class ChatClient {
 public:
  // `endpoint`: the API's base (http://127.0.0.1:8000/v1) or the full .../chat/completions URL.
  // `api_key`: sent as "Authorization: Bearer KEY" unless empty; `api_key_env` names where it came
  // from, for messages (the key itself appears in none).
  ChatClient(const std::string& endpoint, std::string model, std::string api_key, std::string api_key_env);

  const std::string& url() const { return url_; }

  // One completion of `messages` ([{role, content}...]); gives up `timeout_s` from now.
  ChatReply complete(const nlohmann::json& messages, double timeout_s,
                     const std::function<bool()>& interrupted) const;

 private:
  std::string url_;
  std::string model_;
  std::string api_key_;
  std::string api_key_env_;
};

// The chat-completions URL of an endpoint: itself when it already ends in /chat/completions.
std::string chat_completions_url(const std::string& endpoint);

// A chat completion's JSON body read into `reply` (content, finish_reason, usage); false with
// reply.error set when it is not one.
bool parse_chat_completion(const std::string& body, ChatReply& reply);

}  // namespace arena
