#include "judge/timed_runners.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "core/error.hpp"

namespace arena {

int wanted_timed_runners(int backend_default) {
  const char* env = std::getenv("ARENA_TIMED_RUNNERS");
  if (env == nullptr) return std::clamp(backend_default, 1, kMaxTimedRunners);
  const std::string text = env;
  char* end = nullptr;
  const long n = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || end != text.c_str() + text.size() || n < 1 || n > kMaxTimedRunners)
    throw InputError("ARENA_TIMED_RUNNERS is '" + text + "': give how many runner processes each timed side " +
                     "is spread over (1 to " + std::to_string(kMaxTimedRunners) +
                     "; 1 times each side in one process), or unset it for the backend's " +
                     std::to_string(backend_default));
  return static_cast<int>(n);
}

double offset_sd_over_runners(double sd_ns, int runners) {
  return sd_ns / std::sqrt(static_cast<double>(std::max(runners, 1)));
}

}  // namespace arena
