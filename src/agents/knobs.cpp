#include "agents/knobs.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "core/error.hpp"

namespace arena {
namespace {

const char* const kForms =
    "a knob line is `#define NAME VALUE  // arena-knob: V1 V2 ...` or `constexpr int NAME = "
    "VALUE;  // arena-knob: V1 V2 ...`, VALUE and the candidates integer literals";

// A knob line cut in three: everything before the value, the value, everything after it.
struct KnobLine {
  std::string before;
  std::string name;
  std::string value;
  std::string after;
  std::string candidates;  // the text after the marker
};

std::optional<KnobLine> match_knob_line(const std::string& line) {
  static const std::regex define(
      R"(^(\s*#\s*define\s+([A-Za-z_]\w*)\s+)(\S+)(\s*//\s*arena-knob:(.*))$)");
  static const std::regex constexpr_line(
      R"(^(\s*(?:(?:static|inline)\s+)*constexpr\s+[A-Za-z_][\w:]*(?:\s+[A-Za-z_][\w:]*)*\s+([A-Za-z_]\w*)\s*=\s*)([^;\s]+)(\s*;\s*//\s*arena-knob:(.*))$)");
  std::smatch m;
  if (!std::regex_match(line, m, define) && !std::regex_match(line, m, constexpr_line))
    return std::nullopt;
  return KnobLine{m[1], m[2], m[3], m[4], m[5]};
}

std::optional<long long> integer(const std::string& s) {
  long long v = 0;
  const char* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || p != end) return std::nullopt;
  return v;
}

// The lines of `source`, each without its '\n' (a '\r' before it stays with the line's end).
std::vector<std::string> split_lines(const std::string& source) {
  std::vector<std::string> lines;
  std::istringstream in(source);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Matching ignores a '\r' at the end; `cr` gets it back.
std::string without_cr(const std::string& line, std::string& cr) {
  cr = !line.empty() && line.back() == '\r' ? "\r" : "";
  return cr.empty() ? line : line.substr(0, line.size() - 1);
}

Knob parse_knob_line(const std::string& line, const std::string& where) {
  auto m = match_knob_line(line);
  if (!m) throw InputError(where + ": this line holds '" + kKnobMarker + "' but is not a knob (" + kForms + ")");
  Knob k;
  k.name = m->name;
  k.value = m->value;
  if (!integer(k.value))
    throw InputError(where + ": knob " + k.name + ": its value '" + k.value + "' is not an integer literal");
  std::istringstream words(m->candidates);
  std::set<long long> seen;
  for (std::string w; words >> w;) {
    auto v = integer(w);
    if (!v)
      throw InputError(where + ": knob " + k.name + ": candidate '" + w +
                       "' is not an integer literal (candidates are integers separated by spaces; "
                       "explain a knob on a line of its own)");
    if (!seen.insert(*v).second)
      throw InputError(where + ": knob " + k.name + ": candidate " + w + " is listed twice");
    k.candidates.push_back(w);
  }
  if (k.candidates.empty())
    throw InputError(where + ": knob " + k.name + " lists no candidates after '" + kKnobMarker + "'");
  if (!seen.contains(*integer(k.value)))
    throw InputError(where + ": knob " + k.name + ": its value " + k.value +
                     " is not among its candidates (list it: the starter's value is where the "
                     "search begins)");
  return k;
}

}  // namespace

std::vector<Knob> parse_knobs(const std::string& source, const std::string& file) {
  std::vector<Knob> knobs;
  std::vector<std::string> lines = split_lines(source);
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string cr;
    std::string line = without_cr(lines[i], cr);
    if (line.find(kKnobMarker) == std::string::npos) continue;
    const int n = static_cast<int>(i) + 1;
    Knob k = parse_knob_line(line, file + ":" + std::to_string(n));
    k.line = n;
    for (const auto& other : knobs)
      if (other.name == k.name)
        throw InputError(file + ":" + std::to_string(n) + ": knob " + k.name +
                         " is declared twice (first on line " + std::to_string(other.line) + ")");
    knobs.push_back(std::move(k));
  }
  return knobs;
}

std::string set_knobs(const std::string& source, const std::string& file,
                      const std::map<std::string, std::string>& values) {
  std::vector<Knob> knobs = parse_knobs(source, file);
  for (const auto& [name, value] : values) {
    auto k = std::find_if(knobs.begin(), knobs.end(), [&](const Knob& x) { return x.name == name; });
    if (k == knobs.end()) throw InputError(file + ": has no knob " + name);
    if (std::find(k->candidates.begin(), k->candidates.end(), value) == k->candidates.end())
      throw InputError(file + ":" + std::to_string(k->line) + ": knob " + name + ": " + value +
                       " is not one of its candidates");
  }
  std::vector<std::string> lines = split_lines(source);
  for (const auto& k : knobs) {
    auto v = values.find(k.name);
    if (v == values.end()) continue;
    std::string cr;
    std::string line = without_cr(lines[k.line - 1], cr);
    KnobLine m = *match_knob_line(line);
    lines[k.line - 1] = m.before + v->second + m.after + cr;
  }
  std::string out;
  for (const auto& line : lines) out += line + "\n";
  if (!source.empty() && source.back() != '\n') out.pop_back();
  return out;
}

std::string knob_setting_text(const std::vector<Knob>& knobs,
                              const std::map<std::string, std::string>& values) {
  std::string s;
  for (const auto& k : knobs) {
    auto v = values.find(k.name);
    s += (s.empty() ? "" : " ") + k.name + "=" + (v == values.end() ? k.value : v->second);
  }
  return s;
}

}  // namespace arena
