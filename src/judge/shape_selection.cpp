#include "judge/shape_selection.hpp"

#include "core/error.hpp"
#include "judge/heldout_generator.hpp"
#include "judge/lane.hpp"

namespace arena {

std::vector<JudgedShape> select_shapes(const Task& task, const std::string& which, uint64_t seed) {
  std::vector<JudgedShape> out;
  if (which == "visible" || which == "all")
    for (const auto& s : task.visible) out.push_back({s, "visible", ""});
  if (which == "heldout" || which == "all") {
    auto drawn = generate_heldout(task, seed);
    if (drawn.empty())
      throw InputError(task.file.string() +
                       ": field 'heldout': the rules give no held-out shape (declare 'shapes' or "
                       "'categories' with a 'count')");
    for (const auto& h : drawn) out.push_back({h.shape, "heldout", h.category});
  }
  for (const auto& js : out) {
    auto problems = task.shape_problems(js.shape);
    if (!problems.empty())
      throw InputError(task.file.string() + ": " + js.set + " shape " + js.shape.label() +
                       " is not legal: " + problems[0]);
  }
  return out;
}

Shape smallest_visible_shape(const Task& task) {
  if (task.visible.empty())
    throw InputError(task.file.string() + ": the task has no visible shape to run on");
  const Shape* best = &task.visible.front();
  for (const auto& s : task.visible)
    if (region_bytes(task, s) < region_bytes(task, *best)) best = &s;
  return *best;
}

}  // namespace arena
