#include "backends/cpu/cpu_backend.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "core/signature.hpp"
#include "core/subprocess.hpp"

namespace arena {
namespace {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  }
  return "unknown CPU";
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

}  // namespace

size_t last_level_cache_bytes() {
  // The cache this core shares, from sysfs ("32768K"); sysconf may report the whole package's
  // (every CCX of an EPYC summed), which would make the flush buffer needlessly huge.
  for (int index = 3; index >= 2; --index) {
    std::ifstream in("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/size");
    std::string text;
    if (in >> text && !text.empty()) {
      size_t v = std::stoull(text);
      char unit = text.back();
      if (unit == 'K') v <<= 10;
      if (unit == 'M') v <<= 20;
      if (v > 0) return v;
    }
  }
  // No topology (a VM that hides it): sysconf's figure, which on AMD EPYC is the package's (this
  // project's CI VM: 508 MiB, though a core reaches one CCD's 32 MiB). Capped at 64 MiB, more
  // than any one core's L3 on current AMD parts (96 MiB CCDs with stacked cache aside): the
  // flush reads twice this before every cold call, and 1 GiB per timed pair was most of what a
  // CPU eval cost.
  long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (l3 > 0) return std::min(static_cast<size_t>(l3), size_t{64} << 20);
  long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (l2 > 0) return static_cast<size_t>(l2);
  return size_t{8} << 20;
}

CpuBackend::CpuBackend(BackendOptions options) : options_(std::move(options)) {
  const char* cxx = std::getenv("ARENA_CXX");
  compiler_ = (cxx && *cxx) ? cxx : "g++";
  ProcessResult v = run_process({compiler_, "--version"}, 30);
  if (v.exit_code != 0)
    throw InputError("the C++ compiler '" + compiler_ + "' does not run (" + first_line(v.output) +
                     "); install g++ or set ARENA_CXX");
  toolchain_ = first_line(v.output) + " | " + cpu_model();
}

CompileResult CpuBackend::compile(const Task& task, const std::string& source,
                                  const std::vector<std::string>& libraries) const {
  CompileJob job;
  job.files["arena_signature.h"] = signature_header(task, SignatureFlavor::kCpu);
  job.files["solution.cpp"] = source;
  job.files["arena_main.cpp"] = "#include \"arena_signature.h\"\n#include \"solution.cpp\"\n" +
                                invoke_shim(task, SignatureFlavor::kCpu);
  job.command = {compiler_, "-std=c++20", "-O3", "-march=native", "-fopenmp", "-fPIC", "-shared",
                 "-Wl,--no-undefined", "-I.", "-o", "solution.so", "arena_main.cpp"};
  for (const auto& l : libraries) job.command.push_back("-l" + l);
  job.output = "solution.so";
  job.toolchain = toolchain_;
  return build_solution(job, options_.cache_dir, task, signature_declaration(task, SignatureFlavor::kCpu));
}

RunnerSpec CpuBackend::runner(const std::filesystem::path& library, int64_t region_bytes) const {
  RunnerSpec s;
  s.binary = options_.runner_dir / "arena-runner-cpu";
  s.library = library;
  s.flush_bytes = std::clamp<size_t>(2 * last_level_cache_bytes(), size_t{16} << 20, size_t{512} << 20);
  // Room for the shared buffers, the flush buffer and 4 GiB of the solution's own.
  s.address_space_bytes = region_bytes + static_cast<int64_t>(s.flush_bytes) + (int64_t{4} << 30);
  return s;
}

std::map<std::string, std::string> CpuBackend::device() const {
  return {{"kind", "cpu"},
          {"name", cpu_model()},
          {"cores", std::to_string(sysconf(_SC_NPROCESSORS_ONLN))},
          {"last_level_cache_bytes", std::to_string(last_level_cache_bytes())},
          {"compiler", toolchain_.substr(0, toolchain_.find(" | "))}};
}

}  // namespace arena
