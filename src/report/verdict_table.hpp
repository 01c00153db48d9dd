// The readable form of a verdict: a per-shape table and a summary, for the terminal.
#pragma once

#include <string>

#include "judge/verdict.hpp"

namespace arena {

std::string render_verdict(const Verdict& v);

}  // namespace arena
