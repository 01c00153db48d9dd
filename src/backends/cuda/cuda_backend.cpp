#include "backends/cuda/cuda_backend.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "core/cpu_list.hpp"
#include "core/error.hpp"
#include "core/int_env.hpp"
#include "core/sha256.hpp"
#include "core/signature.hpp"
#include "core/subprocess.hpp"
#include "judge/ncu_report.hpp"
#include "judge/sanitizer_log.hpp"
#include "judge/timed_runners.hpp"

namespace arena {
namespace {

std::string find_nvcc() {
  if (const char* n = std::getenv("ARENA_NVCC"); n && *n) return n;
  if (run_process({"nvcc", "--version"}, 30).exit_code == 0) return "nvcc";
  return "/usr/local/cuda/bin/nvcc";
}

std::string last_line(const std::string& s);

// A CUDA tool's path: $`env`, else `name` on PATH, else /usr/local/cuda/bin/`name`; "" when
// there is none.
std::string find_cuda_tool(const char* env, const std::string& name) {
  if (const char* c = std::getenv(env); c && *c) return c;
  if (const char* path = std::getenv("PATH")) {
    std::string dirs = path;
    for (size_t at = 0; at <= dirs.size();) {
      size_t end = dirs.find(':', at);
      if (end == std::string::npos) end = dirs.size();
      std::filesystem::path p = std::filesystem::path(dirs.substr(at, end - at)) / name;
      if (end > at && access(p.c_str(), X_OK) == 0 && std::filesystem::is_regular_file(p))
        return std::filesystem::absolute(p).string();
      at = end + 1;
    }
  }
  std::string fallback = "/usr/local/cuda/bin/" + name;
  if (access(fallback.c_str(), X_OK) == 0) return fallback;
  return "";
}

// The CPUs every runner is pinned to (RunnerSpec::cpus): ARENA_RUNNER_CPUS unset or empty, none;
// "local", those sysfs lists as the GPU's own (its NUMA node's: /sys/bus/pci/devices/ID/
// local_cpulist); else a CPU list. A runner's launches and event records go through host memory
// its process allocated (docs/timing.md, "Is the runner offset the CPU's?").
std::vector<int> runner_cpus(const std::map<std::string, std::string>& info) {
  const char* env = std::getenv("ARENA_RUNNER_CPUS");
  if (env == nullptr || *env == '\0') return {};
  if (std::string(env) != "local") {
    std::vector<int> cpus = parse_cpu_list(env, "ARENA_RUNNER_CPUS");
    check_cpus_allowed(cpus, "ARENA_RUNNER_CPUS");
    return cpus;
  }
  auto bus = info.find("pci_bus_id");
  if (bus == info.end())
    throw InputError("ARENA_RUNNER_CPUS=local: the GPU's PCI bus id is not known (no CUDA device is usable); "
                     "give a CPU list such as 0-7, or unset it");
  // sysfs names a device domain:bus:device.function in lower case with a 4-digit domain;
  // the CUDA runtime may write the domain with 8 digits.
  std::string id = bus->second;
  for (char& c : id) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (size_t colon = id.find(':'); colon > 4 && colon != std::string::npos) id = id.substr(colon - 4);
  const std::filesystem::path file = "/sys/bus/pci/devices/" + id + "/local_cpulist";
  std::ifstream in(file);
  std::string text;
  if (!in || !std::getline(in, text))
    throw InputError("ARENA_RUNNER_CPUS=local: cannot read " + file.string() +
                     "; give a CPU list such as 0-7, or unset it");
  // Those of them this process may use (a cgroup may keep some from it).
  std::vector<int> local = parse_cpu_list(text, file.string()), usable;
  const std::vector<int> allowed = allowed_cpus();
  std::set_intersection(local.begin(), local.end(), allowed.begin(), allowed.end(), std::back_inserter(usable));
  if (usable.empty())
    throw InputError("ARENA_RUNNER_CPUS=local: the GPU's CPUs (" + format_cpu_list(local) + ", " + file.string() +
                     ") are none this process may run on (it may use " + format_cpu_list(allowed) +
                     "); give a CPU list, or unset it");
  return usable;
}

std::string find_compute_sanitizer() { return find_cuda_tool("ARENA_COMPUTE_SANITIZER", "compute-sanitizer"); }
std::string find_ncu() { return find_cuda_tool("ARENA_NCU", "ncu"); }

// Why `tool` (found by `find`) cannot be used; "" when `tool --version` runs.
std::string tool_unusable(const std::string& tool, const std::string& name, const char* env) {
  if (tool.empty())
    return name + " was not found (set " + env + " to its path, put it on PATH, or install the CUDA toolkit's in " +
           "/usr/local/cuda/bin)";
  ProcessResult v = run_process({tool, "--version"}, 60);
  if (v.exit_code != 0)
    return name + " ('" + tool + "') does not run: " + (v.output.empty() ? "no output" : last_line(v.output));
  return "";
}

std::string last_line(const std::string& s) {
  std::string t = s;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  return t.substr(t.rfind('\n') + 1);
}

// Link flags for the libraries a task may allow.
std::vector<std::string> library_flags(const std::vector<std::string>& libraries) {
  std::vector<std::string> f;
  for (const auto& l : libraries) {
    if (l == "cublas") {
      f.insert(f.end(), {"-lcublas", "-lcublasLt"});
    } else if (l == "cudnn" || l == "cufft" || l == "curand" || l == "cusparse" || l == "cusolver") {
      f.push_back("-l" + l);
    } else if (l != "cccl") {  // CCCL (CUB, Thrust) is header-only
      throw InputError("task library '" + l + "' is unknown (known: cublas, cudnn, cufft, curand, cusparse, cusolver, cccl)");
    }
  }
  return f;
}

}  // namespace

namespace {

// Where a successful `--info` answer is kept: the same runner binary, device index, visible
// devices and boot give the same facts, and asking costs a CUDA initialization (~0.5 s) that
// every `arena eval` would otherwise pay before its first step.
std::filesystem::path info_cache_file(const std::filesystem::path& cache_dir, const std::filesystem::path& runner,
                                      int device) {
  if (cache_dir.empty()) return {};
  std::error_code ec;
  auto mtime = std::filesystem::last_write_time(runner, ec);
  if (ec) return {};
  std::string boot;
  try {
    boot = read_file("/proc/sys/kernel/random/boot_id");
  } catch (const std::exception&) {
    return {};  // no boot id: no way to know the facts are still current
  }
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  std::string key = runner.string() + "|" + std::to_string(mtime.time_since_epoch().count()) + "|" +
                    std::to_string(device) + "|" + (visible ? visible : "<unset>") + "|" + boot;
  return cache_dir / "device-info" / (sha256_hex(key).substr(0, 32) + ".txt");
}

}  // namespace

std::map<std::string, std::string> query_cuda_device(const std::filesystem::path& runner_dir, int device,
                                                     const std::filesystem::path& cache_dir) {
  std::map<std::string, std::string> info = {{"kind", "cuda"}, {"device_index", std::to_string(device)}};
  const std::filesystem::path runner = runner_dir / "arena-runner-cuda";
  const std::filesystem::path cached = info_cache_file(cache_dir, runner, device);
  ProcessResult p;
  if (!cached.empty() && std::filesystem::is_regular_file(cached)) {
    p.output = read_file(cached);
    p.exit_code = 0;
  } else {
    p = run_process({runner.string(), "--info", std::to_string(device)}, 60);
    if (p.exit_code == 0 && !cached.empty() && p.output.find("name=") != std::string::npos &&
        p.output.find("error=") == std::string::npos) {
      try {
        std::filesystem::create_directories(cached.parent_path());
        write_file_atomic(cached, p.output);
      } catch (const std::exception&) {
        // an unwritable cache only costs the next eval the query
      }
    }
  }
  std::istringstream lines(p.output);
  std::string line;
  while (std::getline(lines, line)) {
    auto eq = line.find('=');
    if (eq != std::string::npos) info[line.substr(0, eq)] = line.substr(eq + 1);
  }
  if (p.exit_code != 0 && info.count("error") == 0)
    info["error"] = "arena-runner-cuda --info failed: " + (p.output.empty() ? "no output" : last_line(p.output));
  return info;
}

namespace {
// CUDA_DEVICE_MAX_CONNECTIONS for the processes that run only trusted code, or "" for the
// driver's default (CudaBackend::trusted_runner).
std::string trusted_connections() {
  const int n = int_env("ARENA_TRUSTED_CONNECTIONS", 0, 32,
                        "give the hardware queues of the reference's runner and the device helper (1 to 32; 0: "
                        "the driver's default), or unset it for 1")
                    .value_or(1);
  return n > 0 ? "CUDA_DEVICE_MAX_CONNECTIONS=" + std::to_string(n) : "";
}
}  // namespace

CudaBackend::CudaBackend(BackendOptions options, int device) : options_(std::move(options)), device_(device) {
  nvcc_ = find_nvcc();
  ProcessResult v = run_process({nvcc_, "--version"}, 30);
  if (v.exit_code != 0)
    throw InputError("nvcc ('" + nvcc_ + "') does not run: install the CUDA toolkit or set ARENA_NVCC");
  info_ = query_cuda_device(options_.runner_dir, device_, options_.cache_dir);
  info_["nvcc"] = last_line(v.output);
  if (const char* a = std::getenv("ARENA_CUDA_ARCH"); a && *a) {
    arch_ = a;
  } else if (auto cc = info_.find("compute_capability"); cc != info_.end() && info_.count("error") == 0) {
    std::string digits = cc->second.substr(0, cc->second.find('.')) + cc->second.substr(cc->second.find('.') + 1);
    arch_ = "sm_" + digits + (digits == "90" ? "a" : "");
  } else {
    arch_ = "sm_90a";
  }
  info_["arch"] = arch_;
  toolchain_ = info_["nvcc"] + " | " + arch_;
  if (info_.count("error") == 0) {
    nvml_ = std::make_unique<NvmlDevice>(info_.count("pci_bus_id") ? info_.at("pci_bus_id") : "");
    info_["telemetry_source"] = nvml_->error().empty() ? "nvml" : "none: " + nvml_->error();
  }
  runner_cpus_ = runner_cpus(info_);
  info_["runner_cpus"] = runner_cpus_.empty() ? "any (ARENA_RUNNER_CPUS unset)" : format_cpu_list(runner_cpus_);
  info_["timed_runners"] = std::to_string(wanted_timed_runners(CudaBackend::timed_runners())) +
                           (std::getenv("ARENA_TIMED_RUNNERS") != nullptr ? " (ARENA_TIMED_RUNNERS)" : " (the default)");
  trusted_environment_ = trusted_connections();
  info_["trusted_runner"] = (trusted_environment_.empty() ? std::string("the driver's default hardware queues")
                                                          : trusted_environment_) +
                            (std::getenv("ARENA_TRUSTED_CONNECTIONS") != nullptr ? " (ARENA_TRUSTED_CONNECTIONS)"
                                                                                 : " (the default)");
}

std::optional<DeviceTelemetry> CudaBackend::telemetry() const {
  return nvml_ ? nvml_->read() : std::nullopt;
}

std::string CudaBackend::telemetry_unavailable() const {
  if (!nvml_) return "no CUDA device is usable: " + unavailable();
  std::string why;
  return nvml_->read(&why) ? "" : why;
}

std::map<std::string, std::string> CudaBackend::calibrate() const {
  if (std::string why = unavailable(); !why.empty()) return {{"error", why}};
  std::filesystem::path exe = options_.runner_dir / "arena-calibrate";
  if (!std::filesystem::exists(exe)) return {{"error", exe.string() + " is missing (built with the CUDA runner)"}};
  ProcessResult p = run_process({exe.string(), std::to_string(device_)}, 600);
  std::map<std::string, std::string> r;
  std::istringstream lines(p.output);
  std::string line;
  while (std::getline(lines, line)) {
    auto eq = line.find('=');
    if (eq != std::string::npos) r[line.substr(0, eq)] = line.substr(eq + 1);
  }
  if (p.exit_code != 0 && r.count("error") == 0)
    r["error"] = "arena-calibrate failed: " + (p.output.empty() ? "no output" : last_line(p.output));
  return r;
}

std::string CudaBackend::device_key() const {
  auto bus = info_.find("pci_bus_id");
  return "cuda-" + (bus != info_.end() ? bus->second : std::to_string(device_));
}

namespace {
// The device's own architecture, machine code and PTX of it alone: `-arch=sm_90a` would also
// compile PTX for compute_90 (a second front-end pass, a quarter of a starter's compile time),
// which no runner uses (solutions run on the device they were built for).
std::vector<std::string> target_flags(const std::string& arch) {
  if (arch.rfind("sm_", 0) != 0) return {"-arch=" + arch};
  const std::string virt = "compute_" + arch.substr(3);
  return {"-gencode", "arch=" + virt + ",code=[" + arch + "," + virt + "]"};
}
}  // namespace

std::string CudaBackend::unavailable() const {
  auto e = info_.find("error");
  return e == info_.end() ? "" : e->second;
}

CompileResult CudaBackend::compile(const Task& task, const std::string& source,
                                   const std::vector<std::string>& libraries) const {
  CompileJob job;
  job.files["arena_signature.h"] = signature_header(task, SignatureFlavor::kCuda);
  job.files["solution.cu"] = source;
  job.files["arena_main.cu"] = "#include \"arena_signature.h\"\n#include \"solution.cu\"\n" +
                               invoke_shim(task, SignatureFlavor::kCuda);
  // One shared CUDA runtime for runner and solution, and every symbol resolved at link time:
  // an unresolved one is a library the task does not allow. --resource-usage puts each kernel's
  // registers, static shared memory and spills in the log (kernel_resources reads them).
  job.command = {nvcc_, "-std=c++17", "-O3", "-lineinfo"};
  for (const auto& f : target_flags(arch_)) job.command.push_back(f);
  for (const char* f : {"--resource-usage", "-cudart", "shared", "-Xcompiler", "-fPIC", "-shared", "-Xlinker",
                        "--no-undefined", "-I.", "-o", "solution.so", "arena_main.cu"})
    job.command.emplace_back(f);
  for (const auto& f : library_flags(libraries)) job.command.push_back(f);
  job.output = "solution.so";
  job.toolchain = toolchain_;
  job.timeout_s = 300;
  return build_solution(job, options_.cache_dir, task, signature_declaration(task, SignatureFlavor::kCuda));
}

RunnerSpec CudaBackend::runner(const std::filesystem::path& library, int64_t) const {
  RunnerSpec s;
  s.binary = options_.runner_dir / "arena-runner-cuda";
  s.library = library;
  s.flush_bytes = 0;           // the runner sizes its L2 flush from the device
  s.address_space_bytes = 0;   // a CUDA context reserves far more address space than it uses
  s.extra_args = {std::to_string(device_)};
  s.cpus = runner_cpus_;
  return s;
}

RunnerSpec CudaBackend::trusted_runner(RunnerSpec plain) const {
  if (!trusted_environment_.empty()) plain.environment.push_back(trusted_environment_);
  return plain;
}

std::optional<RunnerSpec> CudaBackend::device_helper() const {
  const char* env = std::getenv("ARENA_DEVICE_PLANE");
  if (env != nullptr && std::string(env) == "0") return std::nullopt;
  if (!unavailable().empty()) return std::nullopt;
  RunnerSpec s;
  s.binary = options_.runner_dir / "arena-device-helper";
  s.extra_args = {std::to_string(device_)};
  if (!trusted_environment_.empty()) s.environment.push_back(trusted_environment_);
  return s;
}

std::string CudaBackend::sanitizer_unavailable() const {
  return tool_unusable(find_compute_sanitizer(), "compute-sanitizer", "ARENA_COMPUTE_SANITIZER");
}

RunnerSpec CudaBackend::sanitizer_runner(const RunnerSpec& plain, const std::string& tool,
                                         const std::filesystem::path& log_file) const {
  RunnerSpec s = plain;
  // API errors are not reported: the runner's own calls may fail harmlessly (pinning the region
  // is optional), and a failing call of the solution's is a launch error or crash already.
  s.wrapper = {find_compute_sanitizer(), "--tool", tool, "--log-file", log_file.string(),
               "--error-exitcode", std::to_string(kSanitizerErrorExitCode), "--report-api-errors", "no",
               "--print-limit", "20"};
  s.extra_args.emplace_back("--no-hold");
  s.start_timeout_s = 300;  // an instrumented context and module load take a while
  return s;
}

std::string CudaBackend::profiler_unavailable() const {
  if (std::string why = unavailable(); !why.empty()) return why;
  return tool_unusable(find_ncu(), "Nsight Compute (ncu)", "ARENA_NCU");
}

RunnerSpec CudaBackend::profiler_runner(const RunnerSpec& plain, const std::filesystem::path& report_file) const {
  RunnerSpec s = plain;
  s.wrapper = {find_ncu()};
  for (const auto& a : ncu_arguments(report_file)) s.wrapper.push_back(a);
  // ncu serializes launches: the stream is not held. Its injected code talks to ncu and writes
  // files, so no seccomp profile; the solution's file reads stay confined.
  s.extra_args.emplace_back("--no-hold");
  s.reads_confined_under_wrapper = true;
  s.start_timeout_s = 300;
  return s;
}

}  // namespace arena
