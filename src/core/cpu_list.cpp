#include "core/cpu_list.hpp"

#include <sched.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "core/error.hpp"

namespace arena {

namespace {
// The largest CPU number accepted: far above any machine's, low enough for a cpu_set_t of
// CPU_SETSIZE (1024) to hold it.
constexpr int kMaxCpu = 1023;
}  // namespace

std::vector<int> parse_cpu_list(std::string_view text, const std::string& what) {
  std::string_view t = text;
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back())) != 0) t.remove_suffix(1);
  auto bad = [&](const std::string& why) {
    return InputError(what + ": '" + std::string(text) + "' is not a CPU list (" + why +
                      "); write CPU numbers and ranges such as 0-7,16");
  };
  if (t.empty()) throw bad("it is empty");
  std::vector<int> cpus;
  size_t at = 0;
  while (at <= t.size()) {
    size_t end = t.find(',', at);
    if (end == std::string_view::npos) end = t.size();
    std::string_view item = t.substr(at, end - at);
    auto number = [&](std::string_view s) {
      int v = -1;
      auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      if (s.empty() || ec != std::errc() || p != s.data() + s.size() || v < 0)
        throw bad("'" + std::string(s) + "' is not a CPU number");
      if (v > kMaxCpu) throw bad("CPU " + std::string(s) + " is above " + std::to_string(kMaxCpu));
      return v;
    };
    size_t dash = item.find('-');
    int first = number(item.substr(0, dash));
    int last = dash == std::string_view::npos ? first : number(item.substr(dash + 1));
    if (last < first) throw bad("the range " + std::string(item) + " runs backwards");
    for (int c = first; c <= last; ++c) cpus.push_back(c);
    at = end + 1;
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return {};
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

void check_cpus_allowed(const std::vector<int>& cpus, const std::string& what) {
  const std::vector<int> allowed = allowed_cpus();
  std::vector<int> missing;
  for (int c : cpus)
    if (!std::binary_search(allowed.begin(), allowed.end(), c)) missing.push_back(c);
  if (missing.empty()) return;
  throw InputError(what + ": CPUs " + format_cpu_list(missing) + " are not ones this process may run on (it may use " +
                   format_cpu_list(allowed) + "); name CPUs among those, or unset it");
}

std::string format_cpu_list(const std::vector<int>& cpus) {
  std::string out;
  for (size_t i = 0; i < cpus.size();) {
    size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(cpus[i]);
    if (j > i) out += '-' + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace arena
