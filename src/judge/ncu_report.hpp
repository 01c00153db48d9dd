// Nsight Compute's report for `arena-tool profile`: the arguments that make ncu measure the
// metrics below for every kernel the solution launches and print them as CSV (`--csv
// --print-units base`: one line per kernel launch and metric, values in base units), and the
// parser of that CSV into one ProfiledKernel per launch.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace arena {

// One metric ncu is asked for: its name and what the profile table calls it.
struct NcuMetric {
  const char* name;
  const char* label;
};

// The metrics, in the profile table's order.
const std::vector<NcuMetric>& ncu_metrics();

// ncu's options (everything between `ncu` and the program): the metrics, CSV in base units
// written to `report_file`, clocks left alone (--clock-control none), caches flushed before
// each kernel (its default), at most `max_launches` kernel launches profiled.
std::vector<std::string> ncu_arguments(const std::filesystem::path& report_file,
                                       int max_launches = 64);

struct ProfiledKernel {
  int id = 0;                             // ncu's launch number, from 0
  std::string name;                       // as ncu prints it (demangled)
  std::string grid, block;                // "(4, 1, 1)"
  std::map<std::string, double> metrics;  // ncu metric name -> value in base units
  // The value of `metric`, or nullopt-like -1 when ncu did not report it (or reported n/a).
  double get(const std::string& metric) const;
};

// Parses ncu's CSV (lines that are not CSV rows, such as ncu's "==PROF==" notes, are skipped).
// Throws InputError naming the line when the header lacks a column the parser needs or a row has
// fewer cells than the header. Values with thousands separators ("1,234.5") are read as numbers;
// values that are not numbers ("n/a") are left out.
std::vector<ProfiledKernel> parse_ncu_csv(const std::string& text);

}  // namespace arena
