// arena serve and arena eval --server: the same verdict as judging here, runners started ahead
// for the next eval, and clear errors where no server answers or one already does.

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <thread>

#include "arena_cli.hpp"

namespace arena {
namespace {

using testing::run_arena;
using testing::source_path;

// Whether a server answers on `path` (a connection that sends nothing: the server does not
// count it as an eval).
bool answers(const std::string& path) {
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::snprintf(a.sun_path, sizeof(a.sun_path), "%s", path.c_str());
  const bool ok = connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof(a)) == 0;
  close(fd);
  return ok;
}

// Sends `line` and gives back the server's first reply line ("" when none came).
std::string request(const std::string& path, const std::string& line) {
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::snprintf(a.sun_path, sizeof(a.sun_path), "%s", path.c_str());
  std::string reply;
  if (connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof(a)) == 0) {
    const std::string data = line + "\n";
    if (write(fd, data.data(), data.size()) == static_cast<ssize_t>(data.size())) {
      char buffer[4096];
      ssize_t n;
      while (reply.find('\n') == std::string::npos && (n = read(fd, buffer, sizeof(buffer))) > 0)
        reply.append(buffer, n);
    }
  }
  close(fd);
  return reply;
}

// One line that is no eval request (the server answers it with an error and counts it).
void send_filler(const std::string& path) {
  request(path, "{}");
}

// `arena serve --socket <temp> --evals N` on a thread of its own, until it has served N evals.
// A test that stops early has the destructor send the evals it still owes.
class Server {
 public:
  explicit Server(int evals) : evals_(evals) {
    static int counter = 0;
    socket_ = (std::filesystem::temp_directory_path() /
               ("arena-serve-" + std::to_string(getpid()) + "-" + std::to_string(counter++)) /
               "judge.sock")
                  .string();
    thread_ = std::thread([this, evals] {
      result_ = run_process(
          {ARENA_BIN, "serve", "--socket", socket_, "--evals", std::to_string(evals)}, 600);
      done_ = true;
    });
    for (int i = 0; i < 400 && !done_ && !answers(socket_); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  ~Server() {
    for (int i = 0; i < evals_ && !done_; ++i) send_filler(socket_);
    if (thread_.joinable()) thread_.join();
    std::filesystem::remove_all(std::filesystem::path(socket_).parent_path());
  }
  const std::string& socket() const { return socket_; }
  bool listening() const { return !done_ && answers(socket_); }
  // Waits for the server to end (after its evals) and gives its output.
  ProcessResult finish() {
    thread_.join();
    return result_;
  }

 private:
  int evals_;
  std::string socket_;
  std::atomic<bool> done_{false};
  std::thread thread_;
  ProcessResult result_;
};

std::vector<std::string> eval_args(const std::string& seed) {
  return {"-q",         "eval",
          "-t",         "cpu/vector_add_f32",
          "-s",         source_path("tasks/cpu/vector_add_f32/starter.cpp"),
          "--shape",    "n=1000",
          "--shape",    "n=4097",
          "--seed",     seed,
          "--max-time", "0.1"};
}

TEST(Serve, AnEvalThereIsTheVerdictOfAnEvalHere) {
  Server server(2);
  ASSERT_TRUE(server.listening()) << "the server never listened";
  auto here = run_arena(eval_args("31"), true);
  auto args = eval_args("31");
  args.insert(args.end(), {"--server", server.socket()});
  auto first = run_arena(args, true);
  auto second = run_arena(args, true);
  const ProcessResult log = server.finish();
  ASSERT_EQ(first.exit_code, 0) << first.output << log.output;
  ASSERT_EQ(second.exit_code, 0) << second.output << log.output;
  ASSERT_EQ(here.exit_code, 0) << here.output;
  EXPECT_NE(first.output.find("result: correct"), std::string::npos) << first.output;
  for (const auto* v : {&first.verdict, &second.verdict}) {
    EXPECT_EQ((*v)["task"], here.verdict["task"]);
    EXPECT_EQ((*v)["seed"], here.verdict["seed"]);
    EXPECT_EQ((*v)["solution"]["sha256"], here.verdict["solution"]["sha256"]);
    ASSERT_EQ((*v)["shapes"].size(), here.verdict["shapes"].size());
    for (size_t i = 0; i < here.verdict["shapes"].size(); ++i) {
      EXPECT_EQ((*v)["shapes"][i]["seeds"], here.verdict["shapes"][i]["seeds"]);
      EXPECT_EQ((*v)["shapes"][i]["status"], "pass");
      EXPECT_TRUE((*v)["shapes"][i]["timing"].is_object());
    }
  }
  // The server's log: one line per eval, and the second found its runners already up.
  EXPECT_EQ(log.exit_code, 0) << log.output;
  EXPECT_NE(log.output.find("stopped after 2 eval(s)"), std::string::npos) << log.output;
  std::smatch m;
  std::string rest = log.output;
  std::vector<int> ahead;
  while (std::regex_search(rest, m, std::regex(R"((\d+) runner\(s\) started ahead)"))) {
    ahead.push_back(std::stoi(m[1]));
    rest = m.suffix();
  }
  ASSERT_EQ(ahead.size(), 2u) << log.output;
  EXPECT_GE(ahead[1], 2) << log.output;  // candidate, reference and baseline runners, the helper
}

TEST(Serve, ABadEvalIsItsClientsErrorAndTheServerGoesOn) {
  Server server(5);
  // Requests no client of ours sends: bytes that are not UTF-8, fields of the wrong type.
  for (const std::string& bad : {std::string("\xff\xfe"), std::string(R"({"args": [1, 2]})"),
                                 std::string(R"({"args": [], "device": "x"})")}) {
    const std::string reply = request(server.socket(), bad);
    EXPECT_NE(reply.find(R"("exit_code":2)"), std::string::npos) << bad << " -> " << reply;
  }
  auto bad =
      run_arena({"-q", "eval", "-t", "cpu/no_such_task", "-s",
                 source_path("tasks/cpu/vector_add_f32/starter.cpp"), "--server", server.socket()});
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("error: unknown task 'cpu/no_such_task'"), std::string::npos)
      << bad.output;
  auto args = eval_args("5");
  args.insert(args.end(), {"--server", server.socket(), "--no-timing"});
  auto good = run_arena(args, true);
  EXPECT_EQ(good.exit_code, 0) << good.output;
  ASSERT_EQ(good.verdict["shapes"].size(), 2u) << good.output;
  for (const auto& shape : good.verdict["shapes"])
    EXPECT_EQ(shape["status"], "pass") << good.output;
  EXPECT_EQ(server.finish().exit_code, 0);
}

TEST(Serve, NoServerOrABusySocketIsAnInputError) {
  auto args = eval_args("5");
  args.insert(args.end(),
              {"--server", "/tmp/arena-no-such-dir-" + std::to_string(getpid()) + "/judge.sock"});
  auto none = run_arena(args);
  EXPECT_EQ(none.exit_code, 2) << none.output;
  EXPECT_NE(none.output.find("no judge server answers on"), std::string::npos) << none.output;
  EXPECT_NE(none.output.find("arena serve"), std::string::npos) << none.output;

  Server server(1);
  auto second = run_arena({"serve", "--socket", server.socket()});
  EXPECT_EQ(second.exit_code, 2) << second.output;
  EXPECT_NE(second.output.find("a judge server already answers there"), std::string::npos)
      << second.output;
  auto eval = eval_args("6");
  eval.insert(eval.end(), {"--server", server.socket(), "--no-timing"});
  EXPECT_EQ(run_arena(eval).exit_code, 0);  // the one eval it serves: it still answers
  EXPECT_EQ(server.finish().exit_code, 0);
}

}  // namespace
}  // namespace arena
