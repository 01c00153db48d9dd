// The subcommands of `arena`. Each registers its options on the CLI11 app and runs when chosen,
// returning the process exit code (docs/cli.md).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace arena::cli {

// Exit codes, as documented in `arena --help` and docs/cli.md.
constexpr int kExitCorrect = 0;
constexpr int kExitNotCorrect = 1;
constexpr int kExitInputError = 2;
constexpr int kExitInternalError = 3;
constexpr int kExitNothingRan = 4;  // arena redteam: every chosen case skipped (its backend cannot run here)

using Runner = std::function<int()>;

// Options every command shares.
struct GlobalOptions {
  std::string tasks_dir;
  std::string cache_dir;
  bool quiet = false;
  int device = 0;  // which GPU
};

Runner add_eval_command(CLI::App& app, const GlobalOptions& global);
Runner add_tasks_command(CLI::App& app, const GlobalOptions& global);
Runner add_report_command(CLI::App& app, const GlobalOptions& global);
Runner add_device_command(CLI::App& app, const GlobalOptions& global);
Runner add_run_command(CLI::App& app, const GlobalOptions& global);
Runner add_redteam_command(CLI::App& app, const GlobalOptions& global);
Runner add_serve_command(CLI::App& app, const GlobalOptions& global);

}  // namespace arena::cli
