#include "core/task_catalog.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>

#include "core/error.hpp"

#ifndef ARENA_DEFAULT_TASKS_DIR
#define ARENA_DEFAULT_TASKS_DIR "tasks"
#endif

namespace arena {

namespace fs = std::filesystem;

fs::path tasks_root(const std::string& override_dir) {
  if (!override_dir.empty()) return override_dir;
  if (const char* d = std::getenv("ARENA_TASKS_DIR"); d && *d) return d;
  return ARENA_DEFAULT_TASKS_DIR;
}

std::vector<std::string> list_task_ids(const fs::path& root) {
  std::vector<std::string> ids;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return ids;
  for (const auto& backend : fs::directory_iterator(root, ec)) {
    if (!backend.is_directory()) continue;
    for (const auto& task : fs::directory_iterator(backend.path(), ec)) {
      if (fs::is_regular_file(task.path() / "task.yaml"))
        ids.push_back(backend.path().filename().string() + "/" + task.path().filename().string());
    }
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

fs::path resolve_task(const std::string& dir_or_name, const fs::path& root) {
  if (fs::is_regular_file(fs::path(dir_or_name) / "task.yaml")) return dir_or_name;
  std::vector<std::string> ids = list_task_ids(root);
  std::vector<std::string> matches;
  for (const auto& id : ids) {
    if (id == dir_or_name || id.substr(id.find('/') + 1) == dir_or_name) matches.push_back(id);
  }
  if (matches.size() == 1) return root / matches[0];
  std::string known;
  for (const auto& id : ids) known += (known.empty() ? "" : ", ") + id;
  if (matches.size() > 1)
    throw InputError("task '" + dir_or_name + "' is ambiguous: " + matches[0] + " or " + matches[1] +
                     "; name it with its backend");
  throw InputError("unknown task '" + dir_or_name + "': no such directory with a task.yaml, and no task of that name in " +
                   root.string() + " (known: " + (known.empty() ? "none" : known) + "); see 'arena tasks list'");
}

std::map<std::string, std::vector<std::string>> load_suites(const fs::path& root) {
  std::map<std::string, std::vector<std::string>> suites;
  fs::path file = root / "suites.yaml";
  if (!fs::is_regular_file(file)) return suites;
  YAML::Node n;
  try {
    n = YAML::LoadFile(file.string());
  } catch (const YAML::Exception& e) {
    throw InputError(file.string() + ":" + std::to_string(e.mark.line + 1) + ": malformed YAML: " + e.msg);
  }
  if (!n.IsMap()) throw InputError(file.string() + ": must map suite names to lists of task ids");
  for (const auto& kv : n) {
    auto name = kv.first.as<std::string>();
    if (!kv.second.IsSequence())
      throw InputError(file.string() + ":" + std::to_string(kv.second.Mark().line + 1) + ": suite '" + name +
                       "' must be a list of task ids");
    for (const auto& t : kv.second) suites[name].push_back(t.as<std::string>());
  }
  return suites;
}

}  // namespace arena
