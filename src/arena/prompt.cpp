#include "arena/prompt.hpp"

#include "core/error.hpp"

namespace arena {

std::string render_prompt(const std::string& templ, const std::map<std::string, std::string>& vars,
                          const std::string& template_name) {
  std::string out;
  size_t at = 0;
  for (;;) {
    size_t open = templ.find("{{", at);
    if (open == std::string::npos) break;
    size_t close = templ.find("}}", open);
    if (close == std::string::npos) break;
    std::string name = templ.substr(open + 2, close - open - 2);
    auto v = vars.find(name);
    if (v == vars.end()) {
      std::string known;
      for (const auto& [k, _] : vars) known += (known.empty() ? "" : ", ") + k;
      throw InputError(template_name + ": unknown placeholder {{" + name + "}} (known: " + known +
                       ")");
    }
    out += templ.substr(at, open - at) + v->second;
    at = close + 2;
  }
  return out + templ.substr(at);
}

}  // namespace arena
