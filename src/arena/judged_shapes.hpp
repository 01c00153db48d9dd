// The shapes a round and the final judging use: the task's visible shapes, and for the final
// judging also the held-out shapes drawn from the task's rules with the judging's secret seed
// (what `arena eval --shapes all` judges).
#pragma once

#include <cstdint>
#include <vector>

#include "judge/judge.hpp"

namespace arena {

std::vector<JudgedShape> visible_shapes(const Task& task);
// Visible, then held-out; throws InputError when the task's rules give no held-out shape.
std::vector<JudgedShape> visible_and_heldout_shapes(const Task& task, uint64_t seed);

}  // namespace arena
