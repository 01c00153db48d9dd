// A small integer from an environment variable (the judge's knobs: ARENA_PLACEMENTS,
// ARENA_TIMED_RUNNERS, ...).
#pragma once

#include <optional>
#include <string>

namespace arena {

// The value of `name` where it is set: an integer from `lo` to `hi`; nullopt where unset.
// Anything else is an InputError "NAME is 'TEXT': " followed by `advice` (what to give instead).
std::optional<int> int_env(const char* name, int lo, int hi, const std::string& advice);

}  // namespace arena
