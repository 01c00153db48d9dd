// Errors a user can act on. Every message says what went wrong, where, and what to do.
#pragma once

#include <stdexcept>
#include <string>

namespace arena {

// Something the user gave us is wrong: a task file, a CLI flag, a solution path.
// The CLI maps it to exit code 2.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The harness itself failed (a bug, or the machine refused a resource). Exit code 3.
class InternalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace arena
