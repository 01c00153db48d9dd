// Freivalds' randomized check of a matrix product (a task's `product:`), in fp64 on the host:
// for random ±1 vectors r, out·r must equal a·(b·r) (times the scales), row by row, within what
// the task's tolerance allows an output to be off — half of it per element, as the host
// reference validation allows, summed as independent errors (6 standard deviations). O(M·N +
// K·N + M·K) per vector instead of O(M·N·K): it validates a GEMM reference at sizes its fp64 host
// reference cannot reach. Systematic errors (a wrong tile, a skipped block of K, a transposed
// operand) move whole rows far past that; rounding does not.
#pragma once

#include <string>
#include <vector>

#include "core/task.hpp"
#include "judge/input_generator.hpp"

namespace arena {

// Problems found ("" none): `inputs` are the task's inputs in task order, `out` the product
// tensor as the reference wrote it. Requires task.product.
std::vector<std::string> freivalds_check(const Task& task, const Shape& shape,
                                         const std::vector<HostBuffer>& inputs, const void* out,
                                         uint64_t seed, int vectors = 2);

}  // namespace arena
