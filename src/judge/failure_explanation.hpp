// Why a shape failed, with evidence: read from the whole verdict (which shapes pass and which
// fail, the checker's mismatch map, the failure class, the device's limits) after every shape
// is judged. Held-out failures are what this is for: a kernel overfit to the visible shapes
// breaks in recognisable ways (a missing tail, a grid sized for one shape, a 32-bit index, an
// unstable reduction, resources asked beyond the device's), and the verdict says which.
#pragma once

#include "core/task.hpp"
#include "judge/verdict.hpp"

namespace arena {

// Fills explanation_kind and explanation of every failed shape, and of correct held-out shapes
// whose speedup collapsed below 1 where the visible geomean is above 1.
void explain_failures(const Task& task, Verdict& v);

}  // namespace arena
