// Held-out shapes: drawn from a task's rules (its params' domains, constraints, memory cap and
// heldout.categories), seeded, never a visible shape. The same task and seed give the same shapes
// on every machine: only integer arithmetic and the judge's counter-based random bits.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/task.hpp"

namespace arena {

struct HeldoutShape {
  Shape shape;
  std::string category;  // edge | scale_up | scale_down | alignment | asymmetric | production | largest
};

// The categories a task may list under heldout.categories.
const std::vector<std::string>& heldout_categories();

// Whether `shape` is legal for the task: every param in its domain, every constraint true, the
// tensors within the memory cap, and every tensor's dims and input bounds evaluable.
bool is_legal_shape(const Task& task, const Shape& shape);

// The visible shape with the most bytes (ties: the most flops). The task must have one.
const Shape& largest_visible_shape(const Task& task);

// The largest visible shape with every param scaled by the largest common factor that
// stays legal (params clamped into their domains): that visible shape itself when it is already
// the largest; nothing only when the task has no legal visible shape.
std::optional<Shape> largest_legal_shape(const Task& task);

// The task's declared production shapes first, then `heldout.count` drawn shapes spread over its
// categories in turn (scale_up's first draw is the largest legal shape). A category that finds
// no new legal shape after a bounded search is skipped, so fewer may come back.
std::vector<HeldoutShape> generate_heldout(const Task& task, uint64_t seed);

}  // namespace arena
