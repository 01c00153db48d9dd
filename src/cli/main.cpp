// arena: the KernelArena command line.

#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/commands.hpp"
#include "core/error.hpp"

namespace {

int run_cli(int argc, char** argv) {
  using namespace arena::cli;
  CLI::App app{"KernelArena: judges GPU and CPU kernel solutions, and the agents that write them."};
  app.require_subcommand(1);
  app.footer(
      "Exit codes: 0 judged and correct; 1 judged and not correct (or a flag voids the speedup);\n"
      "2 usage or input error; 3 internal error. See docs/cli.md.");
  GlobalOptions global;
  app.add_option("--tasks-dir", global.tasks_dir,
                 "Tasks directory (default: $ARENA_TASKS_DIR or the built-in tasks/)");
  app.add_option("--cache-dir", global.cache_dir,
                 "Compile cache (default: $ARENA_CACHE_DIR or ~/.cache/kernelarena)");
  app.add_flag("-q,--quiet", global.quiet, "No progress lines on stderr");
  app.add_option("--device", global.device, "Which GPU (index) every command uses")
      ->check(CLI::NonNegativeNumber);
  Runner eval = add_eval_command(app, global);
  Runner tasks = add_tasks_command(app, global);
  Runner report = add_report_command(app, global);
  Runner device = add_device_command(app, global);
  Runner run = add_run_command(app, global);
  Runner redteam = add_redteam_command(app, global);
  Runner serve = add_serve_command(app, global);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitInputError;
  }
  try {
    if (app.got_subcommand("eval")) return eval();
    if (app.got_subcommand("report")) return report();
    if (app.got_subcommand("device")) return device();
    if (app.got_subcommand("run")) return run();
    if (app.got_subcommand("redteam")) return redteam();
    if (app.got_subcommand("serve")) return serve();
    return tasks();
  } catch (const arena::InputError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitInputError;
  }
}

}  // namespace

// Whatever escapes (the command line's own set-up included) is an internal error, never an abort.
int main(int argc, char** argv) {
  try {
    return run_cli(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "internal error: an exception of unknown type\n";
  }
  return arena::cli::kExitInternalError;
}
