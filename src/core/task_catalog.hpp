// Finding tasks and suites under a tasks directory (tasks/<backend>/<name>/task.yaml).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace arena {

// The tasks directory: `override_dir` if given, else $ARENA_TASKS_DIR, else the one this build
// was configured with.
std::filesystem::path tasks_root(const std::string& override_dir = "");

// Every task id ("cpu/sgemm_f32") under `root`, sorted.
std::vector<std::string> list_task_ids(const std::filesystem::path& root);

// A task directory from a path ("tasks/cpu/x", "./mytask") or a name ("cpu/x", or "x" when only
// one backend has it). Throws InputError listing what exists when nothing matches.
std::filesystem::path resolve_task(const std::string& dir_or_name, const std::filesystem::path& root);

// Suites from `root`/suites.yaml: name -> task ids.
std::map<std::string, std::vector<std::string>> load_suites(const std::filesystem::path& root);

}  // namespace arena
