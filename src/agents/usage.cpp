#include "agents/usage.hpp"

#include <ranges>
#include <regex>
#include <sstream>
#include <vector>

namespace arena {
namespace {

const nlohmann::json* at_path(const nlohmann::json& j, const std::string& path) {
  const nlohmann::json* cur = &j;
  std::stringstream ss(path);
  std::string part;
  while (std::getline(ss, part, '.')) {
    if (!cur->is_object() || !cur->contains(part)) return nullptr;
    cur = &(*cur)[part];
  }
  return cur;
}

}  // namespace

nlohmann::json parse_usage(const std::string& output,
                           const std::map<std::string, UsageRule>& rules) {
  std::vector<nlohmann::json> objects;  // every output line that is a JSON object
  std::stringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] != '{') continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_object()) objects.push_back(std::move(j));
  }
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [figure, rule] : rules) {
    if (!rule.json_path.empty()) {
      for (const auto& object : std::views::reverse(objects))
        if (const auto* v = at_path(object, rule.json_path); v && v->is_number()) {
          out[figure] = *v;
          break;
        }
    } else {
      std::regex re(rule.regex);
      std::string last;
      for (auto m = std::sregex_iterator(output.begin(), output.end(), re);
           m != std::sregex_iterator(); ++m)
        last = (*m)[1].str();
      if (!last.empty()) {
        std::string digits;
        for (char c : last)
          if (c != ',') digits += c;
        try {
          out[figure] = std::stod(digits);
        } catch (const std::exception&) {
        }
      }
    }
  }
  return out.empty() ? nlohmann::json(nullptr) : out;
}

}  // namespace arena
