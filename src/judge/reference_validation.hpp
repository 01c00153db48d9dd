// Validation of a task's device reference against its host reference (`host_reference:` in
// task.yaml): a plain C++ file computing the same outputs in fp64 on the CPU. Both run on the
// same generated inputs; every output element of the device reference must lie within half the
// task's tolerance of the host's. Run by `arena tasks check`; the judge trusts the device
// reference only because this holds.
#pragma once

#include <string>
#include <vector>

#include "core/task.hpp"
#include "judge/backend.hpp"

namespace arena {

// Shapes whose work (the task's flops expression) is above this are too slow for the host
// reference and are left out; the report says which.
inline constexpr double kHostReferenceMaxFlops = 2e10;

struct ReferenceValidation {
  std::vector<std::string> problems;  // empty when the references agree on every shape checked
  std::vector<std::string> checked;   // shape labels compared
  std::vector<std::string> skipped;   // shape labels over kHostReferenceMaxFlops
  // Of those, the ones a task with `product:` validated with Freivalds' check instead.
  std::vector<std::string> freivalds;
};

// `device` runs the task's reference, `host` (the CPU backend) its host reference; shapes too
// large for the host reference are checked with Freivalds' check where the task declares its
// output a matrix product (judge/freivalds). Throws
// InputError when either does not compile.
ReferenceValidation validate_reference(const Task& task, const Backend& device, const Backend& host,
                                       const std::vector<Shape>& shapes, uint64_t seed);

}  // namespace arena
