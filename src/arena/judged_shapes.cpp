#include "arena/judged_shapes.hpp"

#include "core/error.hpp"
#include "judge/heldout_generator.hpp"

namespace arena {

std::vector<JudgedShape> visible_shapes(const Task& task) {
  std::vector<JudgedShape> out;
  for (const auto& s : task.visible) out.push_back({s, "visible", ""});
  return out;
}

std::vector<JudgedShape> visible_and_heldout_shapes(const Task& task, uint64_t seed) {
  auto out = visible_shapes(task);
  auto drawn = generate_heldout(task, seed);
  if (drawn.empty())
    throw InputError(task.file.string() +
                     ": field 'heldout': the rules give no held-out shape, so an episode's "
                     "final solution cannot be judged on held-out shapes");
  for (const auto& h : drawn) out.push_back({h.shape, "heldout", h.category});
  return out;
}

}  // namespace arena
