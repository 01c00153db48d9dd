// The hardware sheet in an agent's workspace: what the backend reports about the device (as
// `arena device` prints it: CPU cores and caches; GPU SMs, shared memory and registers per SM,
// L2, memory, the -arch solutions are compiled for) and its peak rates, as Markdown.
#pragma once

#include <string>

#include "judge/backend.hpp"

namespace arena {

std::string hardware_sheet(const Backend& backend);

}  // namespace arena
