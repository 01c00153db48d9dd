// Reading a compute-sanitizer report (its --log-file): how many errors each tool found, and the
// report itself, cut to a size a verdict can carry.
//
//   memcheck, initcheck, synccheck:  "========= ERROR SUMMARY: 3 errors" ("1 error")
//   racecheck:  "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)"
//
// A racecheck warning (a hazard that only warp-synchronous code relies on) is not an error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace arena {

// The exit code the judge asks compute-sanitizer to return when it found an error
// (--error-exitcode); distinct from every exit code the runners use themselves (86-89).
constexpr int kSanitizerErrorExitCode = 97;

struct SanitizerLog {
  bool summary_found = false;      // the tool's summary line was there: it ran to the end
  int64_t errors = 0;              // from the summary; the largest when it appears more than once
  int64_t warnings = 0;            // racecheck only
  bool application_error = false;  // "Target application returned an error"
};

SanitizerLog parse_sanitizer_log(const std::string& text);

// `text` when it is at most `max_bytes`, else its head and its last lines (the summary) with a
// note of what was cut between them.
std::string cut_report(const std::string& text, size_t max_bytes = 6000);

}  // namespace arena
