// The readable form of a profile (`arena-tool profile`): one row per kernel launch with the
// figures that say what bounds it, and a line on how to read them.
#pragma once

#include <string>

#include "judge/profile_run.hpp"

namespace arena {

std::string render_profile(const ProfileResult& p);

}  // namespace arena
