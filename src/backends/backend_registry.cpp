#include "backends/backend_registry.hpp"

#include "backends/cpu/cpu_backend.hpp"
#ifdef ARENA_WITH_CUDA
#include "backends/cuda/cuda_backend.hpp"
#endif
#include "core/error.hpp"

namespace arena {

std::unique_ptr<Backend> make_backend(const std::string& name, const BackendOptions& options) {
  if (name == "cpu") return std::make_unique<CpuBackend>(options);
#ifdef ARENA_WITH_CUDA
  if (name == "cuda") return std::make_unique<CudaBackend>(options, options.device);
  const char* available = "cpu, cuda";
#else
  const char* available = "cpu (this build found no CUDA compiler)";
#endif
  throw InputError("backend '" + name + "' is not available in this build (available: " + available + ")");
}

}  // namespace arena
