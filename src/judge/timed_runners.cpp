#include "judge/timed_runners.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/int_env.hpp"

namespace arena {

int wanted_timed_runners(int backend_default) {
  return int_env("ARENA_TIMED_RUNNERS", 1, kMaxTimedRunners,
                 "give how many runner processes each timed side is spread over (1 to " +
                     std::to_string(kMaxTimedRunners) +
                     "; 1 times each side in one process), or unset it for the backend's " +
                     std::to_string(backend_default))
      .value_or(std::clamp(backend_default, 1, kMaxTimedRunners));
}

double offset_sd_over_runners(double sd_ns, int runners) {
  return sd_ns / std::sqrt(static_cast<double>(std::max(runners, 1)));
}

}  // namespace arena
