// Test double of an OpenAI-compatible chat endpoint: an HTTP/1.1 server on 127.0.0.1 (an
// ephemeral port) on a thread of its own. It answers each POST with what `answer` gives for the
// request's index and records every request (path, headers, JSON body) for the test to read.
// One request per connection ("Connection: close"); nothing else of HTTP.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace arena::testing {

struct ChatRequest {
  std::string method;
  std::string path;
  std::map<std::string, std::string> headers;  // names in lower case
  nlohmann::json body;                         // null when it was not JSON
};

struct ChatResponse {
  int status = 200;
  std::string body;
};

// A chat completion whose message is `content`, with a usage block.
inline ChatResponse chat_completion(const std::string& content, int prompt_tokens,
                                    int completion_tokens) {
  nlohmann::json j = {{"id", "chatcmpl-test"},
                      {"object", "chat.completion"},
                      {"model", "fake-model"},
                      {"choices",
                       {{{"index", 0},
                         {"message", {{"role", "assistant"}, {"content", content}}},
                         {"finish_reason", "stop"}}}},
                      {"usage",
                       {{"prompt_tokens", prompt_tokens},
                        {"completion_tokens", completion_tokens},
                        {"total_tokens", prompt_tokens + completion_tokens}}}};
  return {200, j.dump()};
}

class FakeChatServer {
 public:
  using Answer = std::function<ChatResponse(int index, const ChatRequest&)>;

  explicit FakeChatServer(Answer answer) : answer_(std::move(answer)) {
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;  // the kernel picks a free port
    socklen_t len = sizeof addr;
    if (listen_fd_ < 0 ||
        ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(listen_fd_, 8) != 0 ||
        ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
      throw std::runtime_error("fake chat server: cannot listen on 127.0.0.1");
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~FakeChatServer() {
    stop_ = true;
    thread_.join();
    ::close(listen_fd_);
  }
  FakeChatServer(const FakeChatServer&) = delete;
  FakeChatServer& operator=(const FakeChatServer&) = delete;

  std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }
  std::vector<ChatRequest> requests() const {
    std::lock_guard lock(mutex_);
    return requests_;
  }

 private:
  void serve() {
    while (!stop_) {
      pollfd p{listen_fd_, POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) continue;
      handle(fd);
      ::close(fd);
    }
  }

  void handle(int fd) {
    std::string data;
    size_t header_end = std::string::npos;
    while ((header_end = data.find("\r\n\r\n")) == std::string::npos)
      if (!read_some(fd, data)) return;
    ChatRequest req;
    std::string head = data.substr(0, header_end);
    size_t line_end = head.find("\r\n");
    std::string request_line = head.substr(0, line_end);
    req.method = request_line.substr(0, request_line.find(' '));
    req.path =
        request_line.substr(req.method.size() + 1, request_line.rfind(' ') - req.method.size() - 1);
    size_t content_length = 0;
    for (size_t at = line_end; at != std::string::npos && at < head.size();) {
      size_t next = head.find("\r\n", at + 2);
      std::string line = head.substr(at + 2, next == std::string::npos ? next : next - at - 2);
      if (auto colon = line.find(':'); colon != std::string::npos) {
        std::string name = line.substr(0, colon);
        std::transform(name.begin(), name.end(), name.begin(),
                       [](unsigned char c) { return std::tolower(c); });
        std::string value = line.substr(line.find_first_not_of(' ', colon + 1));
        req.headers[name] = value;
        if (name == "content-length") content_length = std::stoul(value);
      }
      at = next;
    }
    std::string body = data.substr(header_end + 4);
    while (body.size() < content_length)
      if (!read_some(fd, body)) return;
    req.body = nlohmann::json::parse(body, nullptr, false);
    if (req.body.is_discarded()) req.body = nullptr;
    int index;
    {
      std::lock_guard lock(mutex_);
      index = static_cast<int>(requests_.size());
      requests_.push_back(req);
    }
    ChatResponse r = answer_(index, req);
    std::string out = "HTTP/1.1 " + std::to_string(r.status) + " Fake\r\n" +
                      "Content-Type: application/json\r\nConnection: close\r\n" +
                      "Content-Length: " + std::to_string(r.body.size()) + "\r\n\r\n" + r.body;
    for (size_t done = 0; done < out.size();) {
      ssize_t n = ::send(fd, out.data() + done, out.size() - done, MSG_NOSIGNAL);
      if (n <= 0) return;
      done += static_cast<size_t>(n);
    }
  }

  static bool read_some(int fd, std::string& into) {
    char buf[65536];
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return false;
    into.append(buf, static_cast<size_t>(n));
    return true;
  }

  Answer answer_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  mutable std::mutex mutex_;
  std::vector<ChatRequest> requests_;
  std::thread thread_;
};

// A loopback port where nothing listens: bound, then closed.
inline int closed_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

}  // namespace arena::testing
