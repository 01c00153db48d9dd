// Soundness checks of a task's data, run by `arena tasks check`: with the reference's outputs
// on real inputs, would a degenerate solution (all zeros, one constant) be rejected, and do the
// outputs depend on the inputs at all? Where the task declares `equivariant` params, does
// reordering the inputs along them only reorder the outputs? Is the starter correct on the
// held-out shapes the task's rules draw, under several seeds?
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/task.hpp"
#include "judge/backend.hpp"

namespace arena {

// Problems found at `shape`; empty when sound. Throws InputError if the reference does not compile.
std::vector<std::string> audit_degenerate_outputs(const Task& task, const Backend& backend, const Shape& shape,
                                                  uint64_t seed);

// The starter judged without timing on the held-out shapes each of `seeds` draws, exactly as
// `arena eval --shapes heldout --seed S --no-timing` judges them (the same shapes, input seeds
// and magnitude stress): the starter is the baseline of every held-out eval, so a starter that
// fails there turns its own code into a regression. One problem per failing shape (the first
// seed that fails it), naming the shape, its category, the seed and the command that reproduces
// it. `progress` gets one line per seed. Throws InputError if the starter or reference does not
// compile.
std::vector<std::string> audit_starter_heldout(
    const Task& task, const Backend& backend, const std::vector<uint64_t>& seeds,
    const std::function<void(const std::string&)>& progress);

// Problems with the tolerances themselves (negative, or too loose for the dtype).
std::vector<std::string> audit_tolerances(const Task& task);

}  // namespace arena
