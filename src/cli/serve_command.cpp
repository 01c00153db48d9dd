// arena serve: a judge that stays up between evals. It keeps a pool of runners (and the device
// helper) started ahead of need, so an `arena eval --server` pays no runner or context start on
// its path, only its own checks and timing; after each eval the judge starts the next one's.
// One eval at a time, in the order they connect; each is judged exactly as `arena eval` would
// (judge_eval), with the same verdict, table and exit code sent back.

#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/eval_options.hpp"
#include "cli/judge_socket.hpp"
#include "core/error.hpp"
#include "core/json_text.hpp"
#include "judge/runner_pool.hpp"
#include "judge/verdict_json.hpp"
#include "report/verdict_table.hpp"

namespace arena::cli {
namespace {

struct ServeOptions {
  std::string socket;
  int evals = 0;  // stop after this many; 0: until SIGINT/SIGTERM
};

std::atomic<bool> g_stop{false};
extern "C" void on_stop_signal(int) {
  g_stop = true;
}

// Judges one request; every reply line goes to `client`. False when the client sent none (it
// only looked whether a server answers).
bool serve_one(LineChannel& client, const GlobalOptions& server_global, RunnerPool& pool) {
  std::string line;
  if (!client.read_line(line)) return false;
  auto fail = [&client](int code, const std::string& message) {
    client.write_line(json_text({{"error", message}, {"exit_code", code}}));
  };
  const nlohmann::json request = nlohmann::json::parse(line, nullptr, false);
  if (request.is_discarded() || !request.is_object() || !request.contains("args") ||
      !request["args"].is_array()) {
    fail(kExitInputError, "the request is not an eval request (a JSON object with 'args'): '" +
                              line.substr(0, 200) + "'");
    return true;
  }
  try {
    EvalOptions o;
    GlobalOptions g = server_global;
    try {
      o = parse_eval_options(request["args"].get<std::vector<std::string>>());
      g.quiet = request.value("quiet", false);
      if (const int device = request.value("device", server_global.device); device != server_global.device)
        throw InputError("this judge server judges on GPU " + std::to_string(server_global.device) +
                         ", not " + std::to_string(device) + " (start one with `arena --device " +
                         std::to_string(device) + " serve --socket ...`)");
      if (const std::string d = request.value("tasks_dir", ""); !d.empty()) g.tasks_dir = d;
      if (const std::string d = request.value("cache_dir", ""); !d.empty()) g.cache_dir = d;
    } catch (const CLI::ParseError& e) {
      throw InputError(std::string("eval options: ") + e.what());
    } catch (const nlohmann::json::exception& e) {
      throw InputError(std::string("the request's fields: ") + e.what());
    }
    EvalHooks hooks;
    hooks.runners = &pool;
    if (!g.quiet)
      hooks.progress = [&client](const std::string& p) {
        client.write_line(json_text({{"progress", p}}));
      };
    std::cout << "eval: " << o.task << " " << o.solution << "\n" << std::flush;
    const size_t ahead_before = pool.lent_ahead();
    Verdict v = judge_eval(o, g, hooks);
    client.write_line(json_text({{"rendered", render_verdict(v)},
                                 {"verdict", verdict_to_json(v)},
                                 {"exit_code", v.exit_code()}}));
    std::cout << "  exit " << v.exit_code() << ", " << v.seconds["total"] << " s, "
              << pool.lent_ahead() - ahead_before << " runner(s) started ahead\n"
              << std::flush;
  } catch (const InputError& e) {
    std::cout << "  error: " << e.what() << "\n" << std::flush;
    fail(kExitInputError, e.what());
  } catch (const std::exception& e) {
    std::cout << "  internal error: " << e.what() << "\n" << std::flush;
    fail(kExitInternalError, e.what());
  }
  return true;
}

int run_serve(const GlobalOptions& global, const ServeOptions& o) {
  const std::string path = o.socket.empty() ? default_judge_socket() : o.socket;
  const int listener = listen_judge_socket(path);
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sa.sa_flags =
      SA_RESTART;  // an eval's reads and waits go on; only the accept loop's poll() sees it
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  RunnerPool pool;
  std::cout << "arena serve: judging on " << path << " (pid " << getpid()
            << "); `arena eval --server " << path << " ...` sends it an eval; stop with Ctrl-C\n"
            << std::flush;
  int served = 0;
  while (!g_stop && (o.evals == 0 || served < o.evals)) {
    pollfd p{listener, POLLIN, 0};
    if (poll(&p, 1, 200) <= 0) continue;  // a timeout, or a signal: look at g_stop again
    const int fd = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    // A client that sends nothing (or stops reading) holds the server 10 s at most per read or
    // write, not forever.
    const timeval limit{10, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof(limit));
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof(limit));
    LineChannel client(fd);
    try {
      if (serve_one(client, global, pool)) ++served;
    } catch (const std::exception& e) {  // the reply itself failed: this client's loss only
      std::cout << "  internal error: " << e.what() << "\n" << std::flush;
      ++served;
    }
  }
  close(listener);
  unlink(path.c_str());
  std::cout << "arena serve: stopped after " << served << " eval(s)\n";
  return kExitCorrect;
}

}  // namespace

Runner add_serve_command(CLI::App& app, const GlobalOptions& global) {
  CLI::App* cmd = app.add_subcommand(
      "serve",
      "Stay up as a judge with runners started ahead of need; `arena eval --server` judges there");
  auto o = std::make_shared<ServeOptions>();
  cmd->add_option("--socket", o->socket,
                  "Unix socket to listen on (default: $ARENA_JUDGE_SOCKET, else "
                  "/tmp/kernelarena-<uid>/judge.sock)");
  cmd->add_option("--evals", o->evals,
                  "Stop after this many evals (default: until SIGINT or SIGTERM)")
      ->check(CLI::NonNegativeNumber);
  cmd->footer(
      "Exit codes: 0 stopped, 2 the socket cannot be used (a server already answers there, or a "
      "bad path).");
  return [&global, o] { return run_serve(global, *o); };
}

}  // namespace arena::cli
