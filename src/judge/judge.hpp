// The judge: evaluates one solution of one task on a set of shapes and returns a verdict.
// Backend-neutral; the backend compiles and starts runners. The judge process never loads
// solution code: candidate, baseline and reference each run in their own runner.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/task.hpp"
#include "judge/backend.hpp"
#include "judge/stopping_rule.hpp"
#include "judge/verdict.hpp"

namespace arena {

class RunnerPool;

struct JudgedShape {
  Shape shape;
  std::string set;       // "visible" | "heldout" | "custom" (--shape)
  std::string category;  // held-out: which category of the generator drew it
};

struct JudgeOptions {
  std::vector<JudgedShape> shapes;
  uint64_t seed = 0;          // every input and guard derives from it
  bool seed_was_given = false;
  int seeds_per_shape = 2;    // at least two
  bool timing = true;
  bool compile_only = false;  // stop after compiling (works without a device)
  bool cold_cache = true;
  // --graph N: each timing sample replays N calls captured into one CUDA graph (launch-bound
  // shapes); 0 = one plain call per sample. Reported as such in every timing of the verdict.
  int graph_launches = 0;
  StoppingRule stopping;
  double timeout_s = 0;       // per call; 0 = the task's limit
  // After the shapes: run the solution under compute-sanitizer (sanitizer_run.hpp); an error
  // fails the verdict with class sanitizer.
  bool sanitize = false;
  // What the candidate is timed against: empty for the task's baseline; else a file (the
  // task's expert, or any other solution) linked against `baseline_libraries`.
  std::filesystem::path baseline;
  std::vector<std::string> baseline_libraries;
  std::function<void(const std::string&)> progress;  // one line per step, for long evals
  // Runners started ahead of need (judge/runner_pool.hpp) that outlive this eval: the judge
  // takes its lanes' runners and device helper from it and, when done, has it start the next
  // eval's. Null: the judge starts its own at its start, beside the compile.
  RunnerPool* runners = nullptr;
  // With `runners`: whether to have it start the next eval's when done (not after the last).
  bool start_next_runners = true;
};

// Throws InputError when the task's own reference or baseline does not compile.
Verdict judge_solution(const Task& task, const Backend& backend, const std::string& solution_path,
                       const std::string& source, const JudgeOptions& options);

}  // namespace arena
