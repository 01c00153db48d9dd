// Soundness checks of a task's data, run by `arena tasks check`: with the reference's outputs
// on real inputs, would a degenerate solution (all zeros, one constant) be rejected, and do the
// outputs depend on the inputs at all? Where the task declares `equivariant` params, does
// reordering the inputs along them only reorder the outputs?
#pragma once

#include <string>
#include <vector>

#include "core/task.hpp"
#include "judge/backend.hpp"

namespace arena {

// Problems found at `shape`; empty when sound. Throws InputError if the reference does not compile.
std::vector<std::string> audit_degenerate_outputs(const Task& task, const Backend& backend, const Shape& shape,
                                                  uint64_t seed);

// Problems with the tolerances themselves (negative, or too loose for the dtype).
std::vector<std::string> audit_tolerances(const Task& task);

}  // namespace arena
