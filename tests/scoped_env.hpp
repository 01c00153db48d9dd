// Test helper: sets (or unsets) one environment variable for a scope and puts back what was
// there, however the scope ends (a failed ASSERT returns early; an exception unwinds).
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

namespace arena::testing {

class ScopedEnv {
 public:
  // `value` nullptr: the variable is unset for the scope.
  ScopedEnv(std::string name, const char* value) : name_(std::move(name)) {
    if (const char* old = std::getenv(name_.c_str())) old_ = old;
    if (value != nullptr)
      setenv(name_.c_str(), value, 1);
    else
      unsetenv(name_.c_str());
  }
  ~ScopedEnv() {
    if (old_)
      setenv(name_.c_str(), old_->c_str(), 1);
    else
      unsetenv(name_.c_str());
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

}  // namespace arena::testing
