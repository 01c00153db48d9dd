// arena-tool: what an agent calls inside an episode. `eval [FILE]` spends one round: the file is
// sent to the episode's tool server, which snapshots it, judges it on the visible shapes and
// answers with the readable result; `profile [FILE]` spends one round too: the file runs once
// under the device's profiler (Nsight Compute) and the answer is its per-kernel table; `status`
// shows the rounds used and left and the best so far.
// It talks only to the server whose socket $ARENA_TOOL_SOCKET names.

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "arena/tool_protocol.hpp"

namespace {

using namespace arena::tool;

constexpr const char* kUsage =
    "usage: arena-tool eval [FILE] [--json]   judge FILE (default: the workspace's solution) on "
    "the\n"
    "                                         visible shapes; one round of the budget\n"
    "       arena-tool profile [FILE] [--json] run FILE once under Nsight Compute on the "
    "smallest\n"
    "                                         visible shape: time, throughput, occupancy per "
    "kernel;\n"
    "                                         one round of the budget (CUDA tasks only)\n"
    "       arena-tool status [--json]        rounds used and left, the best round so far\n"
    "exit codes: 0 correct (profile: profiled), 1 not correct (profile: not profiled), 2 usage "
    "error\n"
    "or no profiler here (round not counted), 3 no server or harness failure (round not counted), "
    "5 the\n"
    "budget is used up (round refused)\n";

int connect_to_server(std::string& why) {
  const char* path = std::getenv(kSocketEnv);
  if (!path || !*path) {
    why = std::string("$") + kSocketEnv +
          " is not set: arena-tool works only inside an `arena run` episode";
    return -1;
  }
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (std::strlen(path) >= sizeof addr.sun_path) {
    why = std::string("$") + kSocketEnv + " is too long for a socket path";
    return -1;
  }
  std::memcpy(addr.sun_path, path, std::strlen(path) + 1);  // fits: checked above
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    why = std::string("cannot reach the episode's tool server at ") + path + ": " +
          std::strerror(errno) + " (has the episode ended?)";
    if (fd >= 0) close(fd);
    return -1;
  }
  return fd;
}

int fail(int code, const std::string& message) {
  std::cerr << "arena-tool: " << message << "\n";
  return code;
}

int run_tool(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  bool as_json = false;
  std::vector<std::string> words;
  for (const auto& a : args) {
    if (a == "--json") {
      as_json = true;
    } else if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      return 0;
    } else {
      words.push_back(a);
    }
  }
  const bool takes_file = !words.empty() && (words[0] == "eval" || words[0] == "profile");
  if (words.empty() || (!takes_file && words[0] != "status") ||
      (words[0] == "status" && words.size() > 1) || words.size() > 2)
    return fail(kExitUsage, "bad command line\n" + std::string(kUsage));

  nlohmann::json request = {{"command", words[0]}};
  if (takes_file && words.size() == 2) {
    std::ifstream in(words[1], std::ios::binary);
    if (!in)
      return fail(kExitUsage, words[1] + ": cannot read this file (" + std::strerror(errno) + ")");
    std::ostringstream ss;
    ss << in.rdbuf();
    if (ss.str().size() > kMaxMessageBytes / 2)
      return fail(kExitUsage, words[1] + ": too large for a solution");
    request["file"] = words[1];
    request["source"] = ss.str();
  }

  std::string message;
  try {
    message = request.dump();
  } catch (const nlohmann::json::exception&) {  // a source that is not UTF-8 text
    return fail(kExitUsage, words.back() + ": not UTF-8 text; save the solution as UTF-8");
  }
  std::string why;
  int fd = connect_to_server(why);
  if (fd < 0) return fail(kExitInternal, why);
  std::string line;
  if (!send_line(fd, message) || !read_line(fd, line)) {
    close(fd);
    return fail(kExitInternal, "the tool server closed the connection without an answer");
  }
  close(fd);
  Reply reply;
  try {
    reply = reply_from_json(nlohmann::json::parse(line));
  } catch (const std::exception& e) {
    return fail(kExitInternal, std::string("unreadable answer from the tool server: ") + e.what());
  }
  if (as_json) {
    std::cout << reply.json.dump(2) << "\n";
  } else {
    std::cout << reply.text;
    if (!reply.text.empty() && reply.text.back() != '\n') std::cout << "\n";
  }
  return reply.exit_code;
}

}  // namespace

// Whatever escapes is an internal error with its message, never an abort.
int main(int argc, char** argv) {
  try {
    return run_tool(argc, argv);
  } catch (const std::exception& e) {
    return fail(kExitInternal, std::string("arena-tool: ") + e.what());
  } catch (...) {
    return fail(kExitInternal, "arena-tool: an exception of unknown type");
  }
}
