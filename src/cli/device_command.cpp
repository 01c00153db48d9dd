// arena device: what the judge knows about the machine's devices.

#include <iostream>

#include "cli/commands.hpp"
#include "cli/context.hpp"
#include "core/task.hpp"

namespace arena::cli {
namespace {

int run_device(const GlobalOptions& global) {
  int status = kExitCorrect;
  for (const char* backend : {"cpu", "cuda"}) {
    Task probe;
    probe.backend = backend;
    std::unique_ptr<Backend> b;
    try {
      b = backend_for(probe, global);
    } catch (const std::exception& e) {
      std::cout << backend << ": " << e.what() << "\n\n";
      continue;
    }
    std::cout << backend << ":\n";
    for (const auto& [k, v] : b->device()) std::cout << "  " << k << ": " << v << "\n";
    if (auto p = b->peaks())
      std::cout << "  peak row: " << p->name << ": memory " << p->memory_gbytes_per_s << " GB/s, fp32 " << p->fp32_tflops
                << ", tf32 " << p->tf32_tflops << ", bf16 " << p->bf16_tflops << ", fp8 " << p->fp8_tflops
                << " TFLOP/s (dense)\n";
    else
      std::cout << "  peak row: none (no roofline for this device)\n";
    if (std::string why = b->unavailable(); !why.empty()) {
      std::cout << "  (cannot run solutions here: " << why << ")\n";
      if (std::string(backend) == "cuda") status = kExitNotCorrect;
    }
    std::cout << "\n";
  }
  return status;
}

}  // namespace

Runner add_device_command(CLI::App& app, const GlobalOptions& global) {
  CLI::App* cmd = app.add_subcommand("device", "Show the devices the judge would use: CPU, and the GPU chosen by --device");
  cmd->footer("Exit codes: 0 every built backend can run here, 1 the GPU cannot (none visible), 3 internal error.");
  return [&global] { return run_device(global); };
}

}  // namespace arena::cli
