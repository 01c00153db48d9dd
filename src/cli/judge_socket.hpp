// The judge server's socket: where `arena serve` listens and `arena eval --server` connects. A
// Unix stream socket in a directory only its user can enter; one JSON object per line each way
// (docs/cli.md, "arena serve").
#pragma once

#include <string>

namespace arena::cli {

// $ARENA_JUDGE_SOCKET where set, else /tmp/kernelarena-<uid>/judge.sock.
std::string default_judge_socket();

// Binds and listens on `path` (its directory made, mode 0700 where new; a socket file nobody
// answers on replaced). Throws InputError naming the path when it cannot, or when a server
// already answers there.
int listen_judge_socket(const std::string& path);

// Connects to a server on `path`. Throws InputError naming the path and saying how to start one.
int connect_judge_socket(const std::string& path);

// Lines over a connected socket; owns and closes the descriptor.
class LineChannel {
 public:
  explicit LineChannel(int fd) : fd_(fd) {}
  ~LineChannel();
  LineChannel(const LineChannel&) = delete;
  LineChannel& operator=(const LineChannel&) = delete;

  // The next line, without its newline; false at the end of the stream (or an error).
  bool read_line(std::string& line);
  // Writes `line` and a newline; false when the other end has gone (no SIGPIPE).
  bool write_line(const std::string& line);

 private:
  int fd_;
  std::string buffer_;
};

}  // namespace arena::cli
