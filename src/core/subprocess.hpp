// Running other programs: compilers and tools, with a time limit and captured output.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace arena {

struct ProcessResult {
  int exit_code = -1;     // when exited normally
  int signal = 0;         // when killed by a signal
  bool timed_out = false;
  std::string output;     // stdout and stderr together
  double seconds = 0;
};

// Runs argv[0] (looked up on PATH) with `argv`, in `cwd` when given, killing its whole process
// group after `timeout_s`. Output beyond `max_output` bytes is cut (with a note).
ProcessResult run_process(const std::vector<std::string>& argv, double timeout_s,
                          const std::filesystem::path& cwd = {}, size_t max_output = 1 << 20);

// "SIGSEGV (segmentation fault)" for a signal number.
std::string signal_description(int sig);

// Reads a whole file; throws InputError naming the path when it cannot.
std::string read_file(const std::filesystem::path& path);
// Writes a file atomically (temporary file, then rename).
void write_file_atomic(const std::filesystem::path& path, const std::string& content);

// Monotonic clock in seconds.
double now_seconds();

}  // namespace arena
