// Knobs: tuning parameters a solution declares in its own source, on lines that stay valid
// C++/CUDA, for the autotune agent to search (docs/task-format.md):
//
//   #define BLOCK 256  // arena-knob: 64 128 256 512 1024
//   constexpr int kThreads = 256;  // arena-knob: 64 128 256 512 1024
//
// The name, its current value (an integer literal, one of the candidates) and the candidates.
// A knob changes speed only, never what the solution computes.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace arena {

// What marks a knob line; a line that holds it and is not a knob is an error.
inline constexpr const char* kKnobMarker = "arena-knob:";

struct Knob {
  std::string name;
  std::string value;                    // as written in the source
  std::vector<std::string> candidates;  // in the order declared; `value` is one of them
  int line = 0;                         // 1-based
};

// The knobs of `source`, in the order of their lines. `file` names the source in errors.
// Throws InputError "FILE:LINE: ..." for a marked line that is not a knob (its form, a value
// that is no integer, no candidates, a candidate twice, a value not among the candidates) and
// for a name declared twice.
std::vector<Knob> parse_knobs(const std::string& source, const std::string& file);

// `source` with the knobs named in `values` set to the given values (only the value on each
// knob line changes). Throws InputError for a name that is no knob of `source`.
std::string set_knobs(const std::string& source, const std::string& file,
                      const std::map<std::string, std::string>& values);

// "BLOCK=256 ITEMS=4": a setting in one line, for logs.
std::string knob_setting_text(const std::vector<Knob>& knobs,
                              const std::map<std::string, std::string>& values);

}  // namespace arena
