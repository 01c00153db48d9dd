#include "core/int_env.hpp"

#include <cstdlib>

#include "core/error.hpp"

namespace arena {

std::optional<int> int_env(const char* name, int lo, int hi, const std::string& advice) {
  const char* env = std::getenv(name);
  if (env == nullptr) return std::nullopt;
  const std::string text = env;
  char* end = nullptr;
  const long n = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || end != text.c_str() + text.size() || n < lo || n > hi)
    throw InputError(std::string(name) + " is '" + text + "': " + advice);
  return static_cast<int>(n);
}

}  // namespace arena
