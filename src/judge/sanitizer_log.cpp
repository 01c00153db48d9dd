#include "judge/sanitizer_log.hpp"

#include <algorithm>
#include <regex>
#include <sstream>

namespace arena {

SanitizerLog parse_sanitizer_log(const std::string& text) {
  static const std::regex kErrorSummary(R"(ERROR SUMMARY:\s*(\d+)\s+errors?)");
  static const std::regex kRaceSummary(
      R"(RACECHECK SUMMARY:\s*\d+\s+hazards?\s+displayed\s*\(\s*(\d+)\s+errors?,\s*(\d+)\s+warnings?\s*\))");
  SanitizerLog log;
  std::istringstream lines(text);
  std::string line;
  std::smatch m;
  while (std::getline(lines, line)) {
    if (std::regex_search(line, m, kErrorSummary)) {
      log.summary_found = true;
      log.errors = std::max<int64_t>(log.errors, std::stoll(m[1].str()));
    } else if (std::regex_search(line, m, kRaceSummary)) {
      log.summary_found = true;
      log.errors = std::max<int64_t>(log.errors, std::stoll(m[1].str()));
      log.warnings = std::max<int64_t>(log.warnings, std::stoll(m[2].str()));
    }
    if (line.find("Target application returned an error") != std::string::npos)
      log.application_error = true;
  }
  return log;
}

std::string cut_report(const std::string& text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  size_t tail = std::min<size_t>(max_bytes / 4, 1500);
  size_t head = max_bytes - tail;
  // Cut at line ends where there are some.
  size_t head_end = text.rfind('\n', head);
  if (head_end == std::string::npos || head_end < head / 2) head_end = head;
  size_t tail_start = text.find('\n', text.size() - tail);
  if (tail_start == std::string::npos) tail_start = text.size() - tail;
  return text.substr(0, head_end) + "\n[... " + std::to_string(tail_start - head_end) +
         " bytes of the report cut ...]" + text.substr(tail_start);
}

}  // namespace arena
