// What each kernel of a compiled CUDA solution asks of the device, read from the compiler's
// resource report (nvcc --resource-usage): registers per thread, static shared memory, spills.
// Launch failures are explained with it: which kernel asks for what, against the device's limits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace arena {

struct KernelResources {
  std::string name;          // demangled where possible
  int registers = 0;         // per thread
  int64_t shared_bytes = 0;  // static shared memory per block (dynamic comes at launch)
  int64_t stack_bytes = 0;   // local stack frame per thread
  int64_t spill_bytes = 0;   // spill stores + spill loads
};

// Every entry function the log reports, in order; empty for a log without ptxas lines.
std::vector<KernelResources> parse_kernel_resources(const std::string& compile_log);

// The most threads one block of `k` can have on a device with `registers_per_block` registers
// (65536 on every recent NVIDIA GPU), at most 1024.
int max_threads_per_block(const KernelResources& k, int64_t registers_per_block = 65536);

}  // namespace arena
