// What several commands need: the backend for a task, built with the global options.
#pragma once

#include <filesystem>
#include <memory>

#include "cli/commands.hpp"
#include "core/task.hpp"
#include "judge/backend.hpp"

namespace arena::cli {

// The directory of the running `arena` executable (runners live beside it).
std::filesystem::path executable_dir();

std::unique_ptr<Backend> backend_for(const Task& task, const GlobalOptions& global);
// A backend by name ("cpu", "cuda"), e.g. the CPU for a CUDA task's host reference.
std::unique_ptr<Backend> backend_named(const std::string& name, const GlobalOptions& global);

}  // namespace arena::cli
