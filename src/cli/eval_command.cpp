// arena eval: judge one solution of one task.

#include <iostream>

#include "cli/commands.hpp"
#include "cli/eval_options.hpp"
#include "core/subprocess.hpp"
#include "judge/verdict_json.hpp"
#include "report/verdict_table.hpp"

namespace arena::cli {
namespace {

int run_eval(const EvalOptions& o, const GlobalOptions& global) {
  Verdict v = judge_eval(o, global);

  bool json_to_stdout = o.json_path == "-";
  (json_to_stdout ? std::cerr : std::cout) << render_verdict(v);
  if (!o.json_path.empty()) {
    std::string text = verdict_to_json(v).dump(2) + "\n";
    if (json_to_stdout) {
      std::cout << text;
    } else {
      write_file_atomic(o.json_path, text);
    }
  }
  return v.exit_code();
}

}  // namespace

Runner add_eval_command(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<EvalOptions>();
  CLI::App* cmd = app.add_subcommand("eval", "Judge one solution: compile, check on every shape, time against the baseline");
  add_eval_options(*cmd, *o);
  cmd->footer("Exit codes: 0 correct, 1 not correct (or speedup voided), 2 input error, 3 internal error.");
  return [o, &global] { return run_eval(*o, global); };
}

}  // namespace arena::cli
