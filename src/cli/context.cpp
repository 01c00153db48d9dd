#include "cli/context.hpp"

#include "backends/backend_registry.hpp"
#include "judge/compile_cache.hpp"

namespace arena::cli {

std::filesystem::path executable_dir() {
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::current_path() : exe.parent_path();
}

std::unique_ptr<Backend> backend_for(const Task& task, const GlobalOptions& global) {
  return backend_named(task.backend, global);
}

std::unique_ptr<Backend> backend_named(const std::string& name, const GlobalOptions& global) {
  BackendOptions o;
  o.cache_dir =
      global.cache_dir.empty() ? default_cache_dir() : std::filesystem::path(global.cache_dir);
  o.runner_dir = executable_dir();
  o.device = global.device;
  return make_backend(name, o);
}

}  // namespace arena::cli
