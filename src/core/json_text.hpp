// JSON as text for everything the harness writes or sends (verdicts, records, replies, requests).
// Strings in them can carry a solution's bytes (a source line a scan warning quotes, a runner's
// stderr, a compiler's message), which need not be UTF-8: nlohmann::json's dump() throws on those
// and the result would be lost. Here such bytes become U+FFFD instead.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace arena {

// `indent` as dump()'s: -1 for one line, 2 for the files people read.
inline std::string json_text(const nlohmann::json& j, int indent = -1) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace arena
