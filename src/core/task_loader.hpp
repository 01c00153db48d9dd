// Reads and validates task.yaml. Every error names the file, the line and the field.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/task.hpp"

namespace arena {

// Loads `dir`/task.yaml. Throws InputError "FILE:LINE: field 'F': problem; what to do".
Task load_task(const std::filesystem::path& dir);

// The default per-dtype tolerance when a task does not set one.
Tolerance default_tolerance(DType t);

}  // namespace arena
