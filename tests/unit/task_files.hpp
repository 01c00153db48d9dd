// Test helper: a throwaway task directory made from YAML text.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace arena::testing {

class TempTask {
 public:
  explicit TempTask(const std::string& yaml) {
    static int counter = 0;
    dir_ = std::filesystem::temp_directory_path() /
           ("arena-task-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
    std::filesystem::create_directories(dir_);
    write("task.yaml", yaml);
    write("starter.cpp", "// starter\n");
    write("reference.cpp", "// reference\n");
  }
  ~TempTask() { std::filesystem::remove_all(dir_); }
  void write(const std::string& name, const std::string& content) const {
    std::ofstream(dir_ / name) << content;
  }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

// A valid task.yaml; tests replace one line to break it.
inline std::string valid_task_yaml() {
  return R"(name: vadd
backend: cpu
category: cpu2cpu
params:
  n: {min: 1, max: 100000000}
tensors:
  - {name: a, dtype: fp32, role: input, shape: [n]}
  - {name: b, dtype: fp32, role: input, shape: [n]}
  - {name: out, dtype: fp32, role: output, shape: [n]}
flops: "n"
bytes: "12 * n"
visible:
  - {n: 1000}
  - {n: 4097}
reference: reference.cpp
starter: starter.cpp
)";
}

inline std::string replace(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

}  // namespace arena::testing
