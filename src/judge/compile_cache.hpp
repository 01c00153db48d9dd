// A content-addressed cache of compiled solutions. The key hashes every input of the build (the
// files, the command, the toolchain), so a hit is exactly the library that would be built again.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace arena {

struct CompileJob {
  std::map<std::string, std::string> files;  // written into the build directory
  std::vector<std::string> command;          // run in the build directory
  std::string output;                        // the file the command makes, e.g. "solution.so"
  std::string toolchain;                     // compiler version, target machine: part of the key
  double timeout_s = 120;
};

struct CompileResult {
  bool ok = false;
  bool cached = false;
  double seconds = 0;  // this time (a cache hit costs ~0)
  std::string key;
  std::string log;     // the compiler's output, verbatim
  std::string command;
  std::filesystem::path library;
};

class CompileCache {
 public:
  explicit CompileCache(std::filesystem::path root);
  // Builds `job` or returns the cached result. Compile errors are cached too (compilers are
  // deterministic); a build that timed out is not.
  CompileResult build(const CompileJob& job) const;
  const std::filesystem::path& root() const { return root_; }

 private:
  std::filesystem::path root_;
};

// $ARENA_CACHE_DIR, else $XDG_CACHE_HOME/kernelarena, else ~/.cache/kernelarena.
std::filesystem::path default_cache_dir();

}  // namespace arena
