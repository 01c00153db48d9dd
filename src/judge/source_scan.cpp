#include "judge/source_scan.hpp"

#include <algorithm>
#include <regex>
#include <sstream>

namespace arena {
namespace {

struct Rule {
  const char* kind;
  std::regex pattern;
  const char* why;
  bool cuda_only;
};

const std::vector<Rule>& rules() {
  static const std::vector<Rule> kRules = {
      {"side_stream", std::regex(R"(\bcuda(Stream(Create|CreateWithFlags|CreateWithPriority)|StreamPerThread)\b|cudaStreamLegacy|cudaStreamPerThread)"),
       "creates or names a stream other than the one the judge gives: work there is outside the timed window", true},
      {"blocking_call", std::regex(R"(\bcuda(DeviceSynchronize|StreamSynchronize|EventSynchronize|Free|FreeHost|FreeArray)\s*\()"),
       "waits for the device (a synchronization or a free): inside the call it waits behind the judge's hold of the device "
       "and the call fails after 5 s (or half its time limit); enqueue on `stream` and return (cudaFreeAsync for a free)",
       true},
      {"off_stream_copy",
       std::regex(R"(\bcuda(Memset|Memset2D|Memset3D|Memcpy|Memcpy2D|Memcpy3D|MemcpyToSymbol|MemcpyFromSymbol|MemcpyPeer)\s*\()"),
       "a synchronous copy or memset runs on the legacy stream: unordered with the judge's stream and outside its timed "
       "window; enqueue cudaMemcpyAsync or cudaMemsetAsync on `stream`",
       true},
      {"host_thread", std::regex(R"(\bstd::(thread|jthread|async)\b|\bpthread_create\b|\bfork\s*\()"),
       "starts host threads or processes: work after the call returns escapes the timed window (on the GPU, CUDA calls "
       "a thread of its own makes outside the calls flag work_outside_stream)",
       true},
      {"symbol_lookup", std::regex(R"(\bdl(sym|open|vsym)\s*\(|\bcuGetProcAddress|\bcudaGetDriverEntryPoint)"),
       "looks symbols up at run time: the usual way to reach timer or runtime internals", false},
      {"interposed_symbol",
       std::regex(R"((^|[^.\w])(cudaEventRecord|cudaEventElapsedTime|cudaEventSynchronize|cudaStreamSynchronize|cudaDeviceSynchronize|cudaLaunchKernel|cudaMemcpy\w*|clock_gettime|gettimeofday|cuEventRecord)\s*\([^;{]*\)\s*(noexcept\s*)?\{)"),
       "defines a function with the name of a CUDA or timer function: an interposer that can fake times", false},
      {"l2_persistence", std::regex(R"(accessPolicyWindow|cudaLimitPersistingL2CacheSize|cudaAccessPropertyPersisting|cudaStreamSetAttribute|cudaCtxResetPersistingL2Cache)"),
       "changes L2 persistence: data kept in L2 across timed calls beats the cold-cache timing", true},
      {"file_or_env", std::regex(R"(\b(getenv|secure_getenv|fopen|freopen|open|openat|readlink|opendir)\s*\(|std::(i|o)?fstream|/proc/|/dev/shm|/tmp/)"),
       "reads or writes files or the environment: a solution needs only its arguments", false},
      {"code_patching", std::regex(R"(\b(mprotect|dl_iterate_phdr|dladdr|process_vm_writev|ptrace)\s*\(|\b_r_debug\b|\blink_map\b)"),
       "walks or rewrites the loaded program (mprotect, the dynamic linker's tables): how timers get patched", false},
      {"process", std::regex(R"(\b(system|popen|execv\w*|execl\w*|posix_spawn\w*)\s*\()"),
       "runs another program", false},
      {"timer", std::regex(R"(\bcudaEvent(Create|Record|ElapsedTime)\b|\bclock_gettime\b|std::chrono)"),
       "uses timers: a solution has nothing to time, a cheat may (e.g. to detect the timed calls)", false},
  };
  return kRules;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// The source with comments blanked out (same line numbers), so commented-out code is not a finding.
std::string without_comments(const std::string& src) {
  std::string out = src;
  enum { kCode, kLine, kBlock, kString, kChar } state = kCode;
  for (size_t i = 0; i < out.size(); ++i) {
    char c = out[i], n = i + 1 < out.size() ? out[i + 1] : '\0';
    switch (state) {
      case kCode:
        if (c == '/' && n == '/') state = kLine, out[i] = ' ';
        else if (c == '/' && n == '*') state = kBlock, out[i] = ' ';
        else if (c == '"') state = kString;
        else if (c == '\'') state = kChar;
        break;
      case kLine:
        if (c == '\n') state = kCode;
        else out[i] = ' ';
        break;
      case kBlock:
        if (c == '*' && n == '/') state = kCode, out[i] = out[i + 1] = ' ', ++i;
        else if (c != '\n') out[i] = ' ';
        break;
      case kString:
        if (c == '\\') ++i;
        else if (c == '"' || c == '\n') state = kCode;
        break;
      case kChar:
        if (c == '\\') ++i;
        else if (c == '\'' || c == '\n') state = kCode;
        break;
    }
  }
  return out;
}

}  // namespace

std::vector<SourceWarning> scan_source(const std::string& source, const std::string& backend) {
  std::vector<SourceWarning> out;
  const std::string code = without_comments(source);
  std::istringstream code_lines(code), raw_lines(source);
  std::string line, raw;
  int number = 0;
  // One warning per kind: the first line that shows it.
  std::vector<std::string> seen;
  while (std::getline(code_lines, line)) {
    std::getline(raw_lines, raw);
    ++number;
    for (const auto& r : rules()) {
      if (r.cuda_only && backend != "cuda") continue;
      if (std::find(seen.begin(), seen.end(), r.kind) != seen.end()) continue;
      if (!std::regex_search(line, r.pattern)) continue;
      seen.emplace_back(r.kind);
      out.push_back({r.kind, number, trim(raw), r.why});
    }
  }
  return out;
}

}  // namespace arena
