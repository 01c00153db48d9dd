// Which shapes a judging covers: the task's visible shapes as declared, the held-out shapes
// drawn from its rules with the judging's seed (secret unless given, so a verdict's seed
// reproduces them), or both. `arena eval --shapes`, a round (visible) and an episode's final
// judging (all) take them from here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "judge/judge.hpp"

namespace arena {

// which: "visible", "heldout" or "all". Throws InputError naming the task file when the rules
// give no held-out shape or a shape is not legal for the task.
std::vector<JudgedShape> select_shapes(const Task& task, const std::string& which, uint64_t seed);

// The visible shape with the smallest buffer region: where --sanitize and `arena-tool profile`
// run the solution once. Throws InputError naming the task file when there is none.
Shape smallest_visible_shape(const Task& task);

}  // namespace arena
