// Makes the input tensors of one call from a seed: the task's distribution, moved by a random
// offset and scale per tensor, so that outputs depend on the data and never sit near zero.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/task.hpp"
#include "judge/element_draw.hpp"

namespace arena {

using HostBuffer = std::vector<std::byte>;

// One buffer per input tensor, in the task's order, in the tensor's dtype.
// `magnitude` multiplies the scale of every float input (held-out stress: heldout.magnitude).
std::vector<HostBuffer> generate_inputs(const Task& task, const Shape& shape, uint64_t seed, double magnitude = 1.0);

// Input `tensor` (a task tensor index) alone, as generate_inputs makes it.
HostBuffer generate_input(const Task& task, const Shape& shape, size_t tensor, uint64_t seed, double magnitude = 1.0);

// Its elementwise draw (uniform, normal, integer: every element a function of its index, which
// the device helper computes where the tensor lives); nullopt for distinct and offsets tensors,
// which are made on the host.
std::optional<ElementDraw> elementwise_draw(const Task& task, const Shape& shape, size_t tensor, uint64_t seed,
                                            double magnitude = 1.0);

}  // namespace arena
