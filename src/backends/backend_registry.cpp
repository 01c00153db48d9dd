#include "backends/backend_registry.hpp"

#include "backends/cpu/cpu_backend.hpp"
#include "core/error.hpp"

namespace arena {

std::unique_ptr<Backend> make_backend(const std::string& name, const BackendOptions& options) {
  if (name == "cpu") return std::make_unique<CpuBackend>(options);
  throw InputError("backend '" + name + "' is not available in this build (available: cpu)");
}

}  // namespace arena
