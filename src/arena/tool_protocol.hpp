// The protocol between `arena-tool` (in the agent's process tree) and the episode's tool server
// (in `arena run`): one JSON request line and one JSON reply line over a Unix stream socket whose
// path is in the agent's environment. Shared by both sides; header-only, so arena-tool links
// nothing of the judge.
#pragma once

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <nlohmann/json.hpp>
#include <string>

namespace arena::tool {

// The environment variable that holds the socket's path.
inline constexpr const char* kSocketEnv = "ARENA_TOOL_SOCKET";

// arena-tool's exit codes (docs/cli.md).
inline constexpr int kExitCorrect = 0;     // the round was judged correct
inline constexpr int kExitNotCorrect = 1;  // judged, not correct (or its speedup voided)
inline constexpr int kExitUsage = 2;       // a bad command line or an unreadable file
inline constexpr int kExitInternal = 3;    // no server, or the harness failed (round not counted)
inline constexpr int kExitBudgetExhausted = 5;  // every round of the budget is used: refused

// A request or reply is one line of JSON; nothing larger is read.
inline constexpr size_t kMaxMessageBytes = size_t{8} << 20;

// What the server answers: the text for the agent to read, the same as JSON, and the exit code
// arena-tool returns.
struct Reply {
  int exit_code = kExitInternal;
  std::string text;
  nlohmann::json json = nlohmann::json::object();
};

inline nlohmann::json reply_to_json(const Reply& r) {
  return {{"exit_code", r.exit_code}, {"text", r.text}, {"json", r.json}};
}

inline Reply reply_from_json(const nlohmann::json& j) {
  Reply r;
  r.exit_code = j.value("exit_code", kExitInternal);
  r.text = j.value("text", "");
  if (j.contains("json")) r.json = j["json"];
  return r;
}

// Sends a whole line (`text` plus '\n'); false when the peer is gone.
inline bool send_line(int fd, const std::string& text) {
  std::string line = text + "\n";
  size_t done = 0;
  while (done < line.size()) {
    ssize_t n = ::send(fd, line.data() + done, line.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// Reads up to the first '\n' (not included); false on EOF before it or past kMaxMessageBytes.
inline bool read_line(int fd, std::string& out) {
  out.clear();
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    out.append(buf, static_cast<size_t>(n));
    if (auto nl = out.find('\n'); nl != std::string::npos) {
      out.resize(nl);
      return true;
    }
    if (out.size() > kMaxMessageBytes) return false;
  }
}

}  // namespace arena::tool
