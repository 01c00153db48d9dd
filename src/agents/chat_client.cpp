#include "agents/chat_client.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <memory>

#include "core/json_text.hpp"
#include "core/subprocess.hpp"

namespace arena {
namespace {

// No chat completion is this large; a body past it is cut off and reported.
constexpr size_t kMaxBodyBytes = size_t{64} << 20;
// Connecting takes milliseconds when the server is up; past this it is not coming.
constexpr double kConnectTimeoutS = 30;

struct Transfer {
  std::string body;
  bool too_large = false;
  const std::function<bool()>* interrupted = nullptr;
};

size_t on_body(char* data, size_t size, size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  if (t->body.size() + size * n > kMaxBodyBytes) {
    t->too_large = true;
    return 0;  // curl stops with CURLE_WRITE_ERROR
  }
  t->body.append(data, size * n);
  return size * n;
}

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* t = static_cast<Transfer*>(user);
  return *t->interrupted && (*t->interrupted)() ? 1 : 0;  // non-zero aborts the transfer
}

std::string excerpt(const std::string& text, size_t max = 300) {
  std::string s = text.substr(0, max);
  std::replace(s.begin(), s.end(), '\n', ' ');
  return text.size() > max ? s + " ..." : s;
}

// What the endpoint said about an HTTP error: its {"error": {"message"}} where it sent one.
std::string error_detail(const std::string& body) {
  auto j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_object() && j.contains("error")) {
    const auto& e = j["error"];
    if (e.is_object() && e.contains("message") && e["message"].is_string())
      return e["message"].get<std::string>();
    if (e.is_string()) return e.get<std::string>();
  }
  return excerpt(body);
}

std::string http_error_hint(long status, const std::string& api_key_env) {
  if (status == 401 || status == 403)
    return "check the API key in $" + api_key_env + " (--api-key-env names the variable)";
  if (status == 404)
    return "check --endpoint (the API's base, such as http://127.0.0.1:8000/v1) and --model (a "
           "model the endpoint serves)";
  if (status == 429) return "the endpoint is rate-limiting: wait, or lower the load";
  return "see the endpoint's own log";
}

void init_curl_once() {
  static const bool done = [] { return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK; }();
  (void)done;
}

}  // namespace

std::string chat_completions_url(const std::string& endpoint) {
  std::string url = endpoint;
  while (!url.empty() && url.back() == '/') url.pop_back();
  if (url.ends_with("/chat/completions")) return url;
  return url + "/chat/completions";
}

bool parse_chat_completion(const std::string& body, ChatReply& reply) {
  auto j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded()) {
    reply.error = "the body is not JSON";
    return false;
  }
  const nlohmann::json* message = nullptr;
  if (j.is_object() && j.contains("choices") && j["choices"].is_array() && !j["choices"].empty() &&
      j["choices"][0].is_object())
    if (const auto& c = j["choices"][0]; c.contains("message") && c["message"].is_object()) {
      message = &c["message"];
      if (c.contains("finish_reason") && c["finish_reason"].is_string())
        reply.finish_reason = c["finish_reason"];
    }
  if (!message) {
    reply.error = "no choices[0].message in the JSON";
    return false;
  }
  // A null content (a refusal, a tool call) is a reply without code, not a broken endpoint.
  if (message->contains("content") && (*message)["content"].is_string())
    reply.content = (*message)["content"];
  if (j.contains("usage") && j["usage"].is_object()) {
    const auto& u = j["usage"];
    if (u.contains("prompt_tokens") && u["prompt_tokens"].is_number_integer())
      reply.prompt_tokens = u["prompt_tokens"];
    if (u.contains("completion_tokens") && u["completion_tokens"].is_number_integer())
      reply.completion_tokens = u["completion_tokens"];
    reply.has_usage = true;
  }
  return true;
}

ChatClient::ChatClient(const std::string& endpoint, std::string model, std::string api_key,
                       std::string api_key_env)
    : url_(chat_completions_url(endpoint)),
      model_(std::move(model)),
      api_key_(std::move(api_key)),
      api_key_env_(std::move(api_key_env)) {
  init_curl_once();
}

ChatReply ChatClient::complete(const nlohmann::json& messages, double timeout_s,
                               const std::function<bool()>& interrupted) const {
  ChatReply reply;
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) {
    reply.error = "libcurl could not start a transfer (out of memory?)";
    return reply;
  }
  const std::string request = json_text(nlohmann::json{{"model", model_}, {"messages", messages}});
  curl_slist* headers = nullptr;
  headers = curl_slist_append(headers, "Content-Type: application/json");
  headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip for large bodies
  if (!api_key_.empty())
    headers = curl_slist_append(headers, ("Authorization: Bearer " + api_key_).c_str());
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> header_list(headers,
                                                                          curl_slist_free_all);
  Transfer t;
  t.interrupted = &interrupted;
  char curl_error[CURL_ERROR_SIZE] = "";
  const long timeout_ms = std::max(1L, static_cast<long>(timeout_s * 1000));
  CURL* c = curl.get();
  curl_easy_setopt(c, CURLOPT_URL, url_.c_str());
  curl_easy_setopt(c, CURLOPT_POST, 1L);
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, request.c_str());
  curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.size()));
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl_easy_setopt(c, CURLOPT_XFERINFODATA, &t);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
                   std::min(timeout_ms, static_cast<long>(kConnectTimeoutS * 1000)));
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);  // timeouts without SIGALRM: arena run has threads
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, curl_error);

  const double start = now_seconds();
  CURLcode rc = curl_easy_perform(c);
  const std::string where = "the endpoint " + url_;
  if (rc == CURLE_ABORTED_BY_CALLBACK) {
    reply.status = ChatReply::Status::kInterrupted;
    return reply;
  }
  if (rc == CURLE_OPERATION_TIMEDOUT && now_seconds() - start >= timeout_s * 0.99) {
    reply.status = ChatReply::Status::kTimedOut;
    reply.error = where + " gave no reply within the " + std::to_string(timeout_s) +
                  " s left of the episode's time limit";
    return reply;
  }
  if (rc != CURLE_OK) {
    std::string why = curl_error[0] ? curl_error : curl_easy_strerror(rc);
    if (t.too_large) why = "the reply is larger than 64 MiB";
    reply.error = "cannot reach " + where + ": " + why +
                  ". Is the server running, and is --endpoint its API base (such as "
                  "http://127.0.0.1:8000/v1)?";
    return reply;
  }
  long status = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
  if (status != 200) {
    reply.error = where + " answered HTTP " + std::to_string(status) + ": " + error_detail(t.body) +
                  "; " + http_error_hint(status, api_key_env_);
    return reply;
  }
  if (!parse_chat_completion(t.body, reply)) {
    reply.error = where + " answered HTTP 200 with a body that is not a chat completion (" +
                  reply.error + "): " + excerpt(t.body) +
                  ". Is it an OpenAI-compatible API (POST .../v1/chat/completions)?";
    return reply;
  }
  reply.status = ChatReply::Status::kOk;
  return reply;
}

}  // namespace arena
