// What `arena eval` judges and how: its options, their command-line form and the judging itself.
// `arena redteam` judges each of its cases through the same options, parsed from the manifest.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "judge/verdict.hpp"

namespace arena {
class RunnerPool;
}

namespace arena::cli {

struct EvalOptions {
  std::string task;
  std::string solution;
  std::string shapes = "visible";
  std::vector<std::string> explicit_shapes;  // --shape, each "M=64 N=64" or "M=64,N=64"
  std::string baseline;                      // --baseline: "", "expert" or a file
  std::string json_path;
  std::string seed;
  bool no_timing = false;
  bool compile_only = false;
  bool sanitize = false;
  bool warm = false;
  int graph_launches = 0;
  double timeout_s = 0;
  double max_time_s = 2.0;
  int seeds_per_shape = 2;
  std::string server;  // --server: judge on `arena serve` at this socket instead of here

  bool operator==(const EvalOptions&) const = default;
};

// One --shape: "M=8192 N=8192 K=8192" (or comma-separated), every param of `task` once;
// InputError naming the shape and the task's params otherwise.
Shape parse_shape_arg(const Task& task, const std::string& text);

// Registers the options of `arena eval` on `cmd`, writing into `o` (which must outlive it).
void add_eval_options(CLI::App& cmd, EvalOptions& o);

// Parses eval options from words as on the command line (without the command's name); throws
// CLI::ParseError.
EvalOptions parse_eval_options(const std::vector<std::string>& words);

// The words that parse_eval_options() reads back into `o` (--server and --json left out: they
// say where to judge and where the verdict goes, not what to judge). Paths as they are in `o`.
std::vector<std::string> eval_option_words(const EvalOptions& o);

// What a caller other than the command line gives the judging: a pool of runners that outlives
// it (`arena serve`'s) and where progress lines go (default: stderr unless --quiet).
struct EvalHooks {
  RunnerPool* runners = nullptr;
  std::function<void(const std::string&)> progress;
};

// Judges as `arena eval` does. Throws InputError on a bad option, task or solution, and when the
// task's backend cannot run here (unless --compile-only).
Verdict judge_eval(const EvalOptions& o, const GlobalOptions& global, const EvalHooks& hooks = {});

}  // namespace arena::cli
