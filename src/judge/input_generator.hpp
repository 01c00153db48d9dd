// Makes the input tensors of one call from a seed: the task's distribution, moved by a random
// offset and scale per tensor, so that outputs depend on the data and never sit near zero.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/task.hpp"

namespace arena {

using HostBuffer = std::vector<std::byte>;

// One buffer per input tensor, in the task's order, in the tensor's dtype.
// `magnitude` multiplies the scale of every float input (held-out stress: heldout.magnitude).
std::vector<HostBuffer> generate_inputs(const Task& task, const Shape& shape, uint64_t seed, double magnitude = 1.0);

}  // namespace arena
