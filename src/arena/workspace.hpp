// An agent's workspace: the solution file (a copy of the starter), the
// task's README, the signature header the judge compiles against, the visible shapes, the
// hardware sheet and the prompt. Nothing else: no reference, no held-out rules, no seeds.
#pragma once

#include <filesystem>
#include <string>

#include "core/task.hpp"

namespace arena {

struct WorkspaceFiles {
  std::string solution;  // "solution.cpp" / "solution.cu"
  std::string prompt = "PROMPT.md";
  std::string readme = "README.md";
  std::string header = "arena_signature.h";
  std::string shapes = "shapes.yaml";
  std::string hardware = "HARDWARE.md";
};

// The workspace's file names for a task.
WorkspaceFiles workspace_files(const Task& task);

// The visible shapes as YAML: one line per shape, e.g. "- {M: 256, N: 256, K: 256}".
std::string visible_shapes_yaml(const Task& task);

// Writes the workspace (which must not exist yet) with `hardware` and `prompt` as given.
void prepare_workspace(const Task& task, const std::filesystem::path& dir,
                       const std::string& hardware, const std::string& prompt);

}  // namespace arena
