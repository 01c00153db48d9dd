#include "arena/workspace.hpp"

#include "core/signature.hpp"
#include "core/subprocess.hpp"

namespace arena {

WorkspaceFiles workspace_files(const Task& task) {
  WorkspaceFiles f;
  f.solution = "solution" + task.starter.extension().string();
  return f;
}

std::string visible_shapes_yaml(const Task& task) {
  std::string out = "# The visible shapes of " + task.id + ": every round is judged on these.\n";
  for (const auto& s : task.visible) {
    std::string line;
    for (const auto& [k, v] : s.params)
      line += (line.empty() ? "" : ", ") + k + ": " + std::to_string(v);
    out += "- {" + line + "}\n";
  }
  return out;
}

void prepare_workspace(const Task& task, const std::filesystem::path& dir,
                       const std::string& hardware, const std::string& prompt) {
  WorkspaceFiles f = workspace_files(task);
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(task.starter, dir / f.solution);
  std::filesystem::copy_file(task.dir / "README.md", dir / f.readme);
  SignatureFlavor flavor = task.backend == "cuda" ? SignatureFlavor::kCuda : SignatureFlavor::kCpu;
  write_file_atomic(dir / f.header, signature_header(task, flavor));
  write_file_atomic(dir / f.shapes, visible_shapes_yaml(task));
  write_file_atomic(dir / f.hardware, hardware);
  write_file_atomic(dir / f.prompt, prompt);
}

}  // namespace arena
