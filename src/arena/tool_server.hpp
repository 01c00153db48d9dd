// The episode's tool server: listens on a Unix socket (in a private temporary directory) on a
// thread of its own while the agent runs, and answers each arena-tool request through a handler,
// one request at a time.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "arena/tool_protocol.hpp"

namespace arena {

class ToolServer {
 public:
  using Handler = std::function<tool::Reply(const nlohmann::json& request)>;

  // Creates the socket and starts serving; throws InternalError when the socket cannot be made.
  explicit ToolServer(Handler handler);
  ~ToolServer();  // stops, removes the socket
  ToolServer(const ToolServer&) = delete;
  ToolServer& operator=(const ToolServer&) = delete;

  const std::string& socket_path() const { return socket_path_; }
  // Stops accepting; waits for a request being answered. Idempotent.
  void stop();

 private:
  void serve();
  void answer(int client);

  Handler handler_;
  std::filesystem::path dir_;
  std::string socket_path_;
  int listen_fd_ = -1;
  int stop_pipe_[2] = {-1, -1};
  std::thread thread_;
  std::atomic<bool> stopped_{false};
};

}  // namespace arena
