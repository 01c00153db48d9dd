// What `arena eval` judges and how: its options, their command-line form and the judging itself.
// `arena redteam` judges each of its cases through the same options, parsed from the manifest.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "judge/verdict.hpp"

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
};

// Registers the options of `arena eval` on `cmd`, writing into `o` (which must outlive it).
void add_eval_options(CLI::App& cmd, EvalOptions& o);

// Parses eval options from words as on the command line (without the command's name); throws
// CLI::ParseError.
EvalOptions parse_eval_options(const std::vector<std::string>& words);

// Judges as `arena eval` does. Throws InputError on a bad option, task or solution, and when the
// task's backend cannot run here (unless --compile-only).
Verdict judge_eval(const EvalOptions& o, const GlobalOptions& global);

}  // namespace arena::cli
