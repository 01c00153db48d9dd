// Picks the backend a task names.
#pragma once

#include <memory>
#include <string>

#include "judge/backend.hpp"

namespace arena {

// Throws InputError for a backend this build does not have.
std::unique_ptr<Backend> make_backend(const std::string& name, const BackendOptions& options);

}  // namespace arena
