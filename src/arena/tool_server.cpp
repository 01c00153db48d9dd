#include "arena/tool_server.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "core/error.hpp"
#include "core/json_text.hpp"

namespace arena {

ToolServer::ToolServer(Handler handler) : handler_(std::move(handler)) {
  // A short path of its own: socket paths are limited to about 100 bytes, run directories not.
  std::string templ = (std::filesystem::temp_directory_path() / "arena-tool-XXXXXX").string();
  if (!mkdtemp(templ.data()))
    throw InternalError("cannot create a directory for the tool socket: " +
                        std::string(strerror(errno)));
  dir_ = templ;
  socket_path_ = (dir_ / "tool.sock").string();
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (socket_path_.size() >= sizeof addr.sun_path)
    throw InternalError("tool socket path too long: " + socket_path_);
  std::memcpy(addr.sun_path, socket_path_.c_str(), socket_path_.size() + 1);  // fits: checked above
  listen_fd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0 || bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      listen(listen_fd_, 8) != 0 || pipe2(stop_pipe_, O_CLOEXEC) != 0)
    throw InternalError("cannot listen on " + socket_path_ + ": " + strerror(errno));
  thread_ = std::thread([this] { serve(); });
}

ToolServer::~ToolServer() {
  stop();
  if (listen_fd_ >= 0) close(listen_fd_);
  for (int fd : stop_pipe_)
    if (fd >= 0) close(fd);
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

void ToolServer::stop() {
  if (stopped_.exchange(true)) return;
  if (stop_pipe_[1] >= 0) (void)!write(stop_pipe_[1], "x", 1);
  if (thread_.joinable()) thread_.join();
}

void ToolServer::serve() {
  for (;;) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {stop_pipe_[0], POLLIN, 0}};
    int rc = poll(fds, 2, -1);
    if (rc < 0 && errno == EINTR) continue;
    if (rc < 0 || (fds[1].revents & POLLIN)) return;
    if (!(fds[0].revents & POLLIN)) continue;
    int client = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    answer(client);
    close(client);
  }
}

void ToolServer::answer(int client) {
  // A client that connects and never writes must not block the server: one minute for a request.
  timeval tv{60, 0};
  setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  std::string line;
  tool::Reply reply;
  if (!tool::read_line(client, line)) return;
  try {
    reply = handler_(nlohmann::json::parse(line));
  } catch (const nlohmann::json::exception& e) {
    reply = {tool::kExitUsage,
             std::string("arena-tool: unreadable request: ") + e.what(),
             {{"error", "bad_request"}}};
  } catch (const std::exception& e) {
    reply = {
        tool::kExitInternal,
        std::string("arena-tool: the harness failed: ") + e.what() + " (the round was not counted)",
        {{"error", "internal"}, {"message", e.what()}}};
  }
  tool::send_line(client, json_text(tool::reply_to_json(reply)));
}

}  // namespace arena
