// A static scan of a solution's source for constructs that honest kernels rarely need and
// benchmark exploits often do (../shared/EXPLOITS.md): other streams, host threads, symbol
// lookup, definitions that interpose CUDA or timer functions, L2 persistence windows, reads of
// files or the environment, launching programs. Findings are warnings in the verdict, never a
// verdict by themselves: the judge's dynamic checks decide.
#pragma once

#include <string>
#include <vector>

namespace arena {

struct SourceWarning {
  std::string kind;  // side_stream | host_thread | symbol_lookup | interposed_symbol | l2_persistence |
                     // file_or_env | code_patching | process | timer
  int line = 0;      // 1-based
  std::string text;  // the line, trimmed
  std::string why;   // one sentence
};

// `backend`: "cuda" or "cpu" (host threads are normal on the CPU backend, which runs OpenMP).
std::vector<SourceWarning> scan_source(const std::string& source, const std::string& backend);

}  // namespace arena
