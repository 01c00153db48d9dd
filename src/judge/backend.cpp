#include "judge/backend.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/subprocess.hpp"

namespace arena {

CompileResult build_solution(const CompileJob& job, const std::filesystem::path& cache_dir, const Task& task,
                             const std::string& declaration) {
  CompileResult r = CompileCache(cache_dir).build(job);
  if (!r.ok) {
    std::string hint = compile_hint(task, r.log, declaration);
    if (!hint.empty()) r.log = hint + "\n\n" + r.log;
  }
  return r;
}

std::filesystem::path compile_task_file(const Task& task, const Backend& backend,
                                        const std::filesystem::path& file, const std::string& role,
                                        const std::vector<std::string>& libraries) {
  CompileResult r = backend.compile(task, read_file(file), libraries);
  if (!r.ok)
    throw InputError(file.string() + ": the task's " + role + " does not compile; fix the task:\n" + r.log);
  return r.library;
}

std::vector<std::string> forbidden_symbols(const Task& task, const std::string& log) {
  std::vector<std::string> out;
  const std::string marker = "undefined reference to `";
  for (size_t at = log.find(marker); at != std::string::npos; at = log.find(marker, at + 1)) {
    size_t start = at + marker.size();
    size_t end = log.find('\'', start);
    if (end == std::string::npos) break;
    std::string sym = log.substr(start, end - start);
    if (sym != task.entry && std::find(out.begin(), out.end(), sym) == out.end()) out.push_back(sym);
  }
  return out;
}

std::string compile_hint(const Task& task, const std::string& log, const std::string& declaration) {
  if (log.find("conflicting declaration of C function") != std::string::npos ||
      log.find("conflicting types for") != std::string::npos ||
      log.find("has \"C\" linkage") != std::string::npos)  // nvcc's wording
    return "The entry point's signature does not match the task's. It must be exactly:\n  " +
           declaration + ";";
  if (log.find("undefined reference to `" + task.entry + "'") != std::string::npos ||
      log.find("'" + task.entry + "' was not declared") != std::string::npos)
    return "The solution does not define the entry point. It must define:\n  " + declaration + ";";
  if (auto syms = forbidden_symbols(task, log); !syms.empty()) {
    std::string allowed;
    for (const auto& l : task.libraries) allowed += (allowed.empty() ? "" : ", ") + l;
    return "The solution calls '" + syms[0] + "', which no library this task allows provides (allowed beyond the "
           "runtime and the C/C++ standard libraries: " + (allowed.empty() ? "none" : allowed) + ").";
  }
  return "";
}

}  // namespace arena
