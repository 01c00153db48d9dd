// Linux's CPU-list notation ("0-7,16,18-19": /sys/.../local_cpulist, taskset -c), read and written.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace arena {

// The CPUs `text` names, ascending, each once. Throws InputError naming `what` (where the text
// came from: a variable, a file) when `text` is empty or not a CPU list.
std::vector<int> parse_cpu_list(std::string_view text, const std::string& what);

// The CPUs this process may run on (its affinity), ascending.
std::vector<int> allowed_cpus();

// Throws InputError naming `what` when a CPU of `cpus` is not one this process may run on (a
// process it starts could not be pinned there).
void check_cpus_allowed(const std::vector<int>& cpus, const std::string& what);

// The shortest list that names `cpus` (ascending, unique): {0,1,2,3,8} -> "0-3,8".
std::string format_cpu_list(const std::vector<int>& cpus);

}  // namespace arena
