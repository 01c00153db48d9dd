#include "judge/kernel_resources.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <sstream>

namespace arena {
namespace {

std::string demangle(const std::string& mangled) {
  int status = 0;
  char* d = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
  if (status != 0 || d == nullptr) return mangled;
  std::string s = d;
  std::free(d);
  return s;
}

}  // namespace

std::vector<KernelResources> parse_kernel_resources(const std::string& compile_log) {
  static const std::regex kEntry(R"(Compiling entry function '([^']+)')");
  static const std::regex kFrame(
      R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex kUsed(R"(Used (\d+) registers)");
  static const std::regex kSmem(R"((\d+) bytes smem)");
  std::vector<KernelResources> out;
  std::istringstream lines(compile_log);
  std::string line;
  std::smatch m;
  while (std::getline(lines, line)) {
    if (std::regex_search(line, m, kEntry)) {
      out.push_back({demangle(m[1].str()), 0, 0, 0, 0});
    } else if (out.empty()) {
      continue;
    } else if (std::regex_search(line, m, kFrame)) {
      out.back().stack_bytes = std::stoll(m[1].str());
      out.back().spill_bytes = std::stoll(m[2].str()) + std::stoll(m[3].str());
    } else if (std::regex_search(line, m, kUsed)) {
      out.back().registers = std::stoi(m[1].str());
      if (std::smatch s; std::regex_search(line, s, kSmem))
        out.back().shared_bytes = std::stoll(s[1].str());
    }
  }
  return out;
}

int max_threads_per_block(const KernelResources& k, int64_t registers_per_block) {
  if (k.registers <= 0) return 1024;
  // Registers are handed out per warp in units of 256.
  const int64_t per_warp = (static_cast<int64_t>(k.registers) * 32 + 255) / 256 * 256;
  const int64_t warps = registers_per_block / per_warp;
  return static_cast<int>(std::min<int64_t>(1024, warps * 32));
}

}  // namespace arena
