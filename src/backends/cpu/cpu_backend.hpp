// The CPU backend: solutions in C++, compiled by the host compiler (-O3 -march=native -fopenmp)
// into a shared library that arena-runner-cpu loads.
#pragma once

#include "judge/backend.hpp"

namespace arena {

class CpuBackend : public Backend {
 public:
  explicit CpuBackend(BackendOptions options);
  std::string name() const override { return "cpu"; }
  bool times_on_host_clock() const override { return true; }
  CompileResult compile(const Task& task, const std::string& source,
                        const std::vector<std::string>& libraries) const override;
  RunnerSpec runner(const std::filesystem::path& library, int64_t region_bytes) const override;
  std::map<std::string, std::string> device() const override;

 private:
  BackendOptions options_;
  std::string compiler_;
  std::string toolchain_;  // compiler version and CPU model: part of every cache key
};

// Size of the last-level cache in bytes (8 MiB when the system does not say).
size_t last_level_cache_bytes();

}  // namespace arena
