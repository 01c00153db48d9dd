// The verdict as JSON (schema "kernelarena.verdict/1", docs/verdict.md).
#pragma once

#include <nlohmann/json.hpp>

#include "judge/verdict.hpp"

namespace arena {

nlohmann::json verdict_to_json(const Verdict& v);

}  // namespace arena
