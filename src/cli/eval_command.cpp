// arena eval: judge one solution of one task, here or on a running `arena serve` (--server).

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/eval_options.hpp"
#include "cli/judge_socket.hpp"
#include "core/error.hpp"
#include "core/json_text.hpp"
#include "core/subprocess.hpp"
#include "core/task_catalog.hpp"
#include "judge/verdict_json.hpp"
#include "report/verdict_table.hpp"

namespace arena::cli {
namespace {

// Writes the verdict where --json says; the table goes to stderr when the JSON takes stdout.
void emit(const EvalOptions& o, const std::string& rendered, const nlohmann::json& verdict) {
  const bool json_to_stdout = o.json_path == "-";
  (json_to_stdout ? std::cerr : std::cout) << rendered;
  if (o.json_path.empty()) return;
  std::string text = json_text(verdict, 2) + "\n";
  if (json_to_stdout) {
    std::cout << text;
  } else {
    write_file_atomic(o.json_path, text);
  }
}

std::string absolute_if_here(const std::string& path) {
  if (path.empty() || !std::filesystem::exists(path)) return path;
  return std::filesystem::absolute(path).string();
}

// Sends the eval to the server (paths made absolute here: the server has its own working
// directory), prints its progress lines as they come, and gives back its exit code.
int eval_on_server(EvalOptions o, const GlobalOptions& global) {
  const std::string socket = o.server == "-" ? default_judge_socket() : o.server;
  // The server has its own working directory and environment: paths absolute, and the tasks
  // root this client would use ($ARENA_TASKS_DIR included).
  o.task = absolute_if_here(o.task);
  o.solution = std::filesystem::absolute(o.solution).string();
  if (!o.baseline.empty() && o.baseline != "expert")
    o.baseline = std::filesystem::absolute(o.baseline).string();
  nlohmann::json request = {
      {"args", eval_option_words(o)},
      {"quiet", global.quiet},
      {"device", global.device},
      {"tasks_dir", std::filesystem::absolute(tasks_root(global.tasks_dir)).string()},
      {"cache_dir",
       global.cache_dir.empty() ? "" : std::filesystem::absolute(global.cache_dir).string()}};
  LineChannel server(connect_judge_socket(socket));
  if (!server.write_line(json_text(request)))
    throw InputError("the judge server on '" + socket + "' hung up");
  std::string line;
  while (server.read_line(line)) {
    const nlohmann::json reply = nlohmann::json::parse(line, nullptr, false);
    if (reply.is_discarded() || !reply.is_object())
      throw InternalError("the judge server on '" + socket + "' sent '" + line + "'");
    if (reply.contains("progress")) {
      std::cerr << "  .. " << reply.value("progress", std::string()) << "\n";
      continue;
    }
    const int code = reply.value("exit_code", kExitInternalError);
    if (reply.contains("error")) {
      std::cerr << (code == kExitInputError ? "error: " : "internal error: ")
                << reply.value("error", std::string()) << "\n";
      return code;
    }
    if (!reply.contains("verdict"))
      throw InternalError("the judge server on '" + socket + "' sent no verdict: '" + line + "'");
    emit(o, reply.value("rendered", ""), reply.at("verdict"));
    return code;
  }
  throw InternalError("the judge server on '" + socket +
                      "' ended before it sent a verdict (see its output)");
}

int run_eval(const EvalOptions& o, const GlobalOptions& global) {
  if (!o.server.empty()) return eval_on_server(o, global);
  Verdict v = judge_eval(o, global);
  emit(o, render_verdict(v), verdict_to_json(v));
  return v.exit_code();
}

}  // namespace

Runner add_eval_command(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<EvalOptions>();
  CLI::App* cmd = app.add_subcommand(
      "eval", "Judge one solution: compile, check on every shape, time against the baseline");
  add_eval_options(*cmd, *o);
  cmd->footer(
      "Exit codes: 0 correct, 1 not correct (or speedup voided), 2 input error, 3 internal error.");
  return [o, &global] { return run_eval(*o, global); };
}

}  // namespace arena::cli
