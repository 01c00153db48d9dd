#include "judge/backend.hpp"

#include "core/error.hpp"
#include "core/subprocess.hpp"

namespace arena {

std::filesystem::path compile_task_file(const Task& task, const Backend& backend,
                                        const std::filesystem::path& file, const std::string& role) {
  CompileResult r = backend.compile(task, read_file(file));
  if (!r.ok)
    throw InputError(file.string() + ": the task's " + role + " does not compile; fix the task:\n" + r.log);
  return r.library;
}

std::string compile_hint(const Task& task, const std::string& log, const std::string& declaration) {
  if (log.find("conflicting declaration of C function") != std::string::npos ||
      log.find("conflicting types for") != std::string::npos)
    return "The entry point's signature does not match the task's. It must be exactly:\n  " +
           declaration + ";";
  if (log.find("undefined reference to `" + task.entry + "'") != std::string::npos ||
      log.find("'" + task.entry + "' was not declared") != std::string::npos)
    return "The solution does not define the entry point. It must define:\n  " + declaration + ";";
  if (log.find("undefined reference") != std::string::npos)
    return "The solution uses a symbol no allowed library provides (see 'undefined reference' below).";
  return "";
}

}  // namespace arena
