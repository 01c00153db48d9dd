#include "judge/ncu_report.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "core/error.hpp"

namespace arena {
namespace {

// One CSV line: fields separated by ',', a field in double quotes may hold ',' and '""'.
std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cell += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(cell);
      cell.clear();
    } else if (c != '\r') {
      cell += c;
    }
  }
  out.push_back(cell);
  return out;
}

// "1,234.5" -> 1234.5; false when the text is not a number.
bool parse_value(std::string text, double& out) {
  text.erase(std::remove(text.begin(), text.end(), ','), text.end());
  if (text.empty()) return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end != nullptr && *end == '\0';
}

}  // namespace

const std::vector<NcuMetric>& ncu_metrics() {
  static const std::vector<NcuMetric> kMetrics = {
      {"gpu__time_duration.sum", "time"},
      {"sm__throughput.avg.pct_of_peak_sustained_elapsed", "compute %"},
      {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "memory %"},
      {"dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM %"},
      {"dram__bytes.sum", "DRAM bytes"},
      {"lts__t_sector_hit_rate.pct", "L2 hit %"},
      {"sm__warps_active.avg.pct_of_peak_sustained_active", "occupancy %"},
      {"sm__maximum_warps_per_active_cycle_pct", "theoretical %"},
      {"launch__registers_per_thread", "registers"},
      {"launch__shared_mem_per_block_static", "static smem"},
      {"launch__shared_mem_per_block_dynamic", "dynamic smem"},
  };
  return kMetrics;
}

std::vector<std::string> ncu_arguments(const std::filesystem::path& report_file, int max_launches) {
  std::string names;
  for (const auto& m : ncu_metrics()) names += (names.empty() ? "" : ",") + std::string(m.name);
  return {"--csv",
          "--print-units",
          "base",
          "--clock-control",
          "none",
          "--log-file",
          report_file.string(),
          "--launch-count",
          std::to_string(max_launches),
          "--metrics",
          names};
}

double ProfiledKernel::get(const std::string& metric) const {
  auto it = metrics.find(metric);
  return it == metrics.end() ? -1 : it->second;
}

std::vector<ProfiledKernel> parse_ncu_csv(const std::string& text) {
  std::vector<ProfiledKernel> kernels;
  std::vector<std::string> header;
  int id_col = -1, name_col = -1, grid_col = -1, block_col = -1, metric_col = -1, value_col = -1;
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line[0] != '"') continue;  // ncu's own notes ("==PROF== ...")
    std::vector<std::string> cells = split_csv_line(line);
    if (header.empty()) {
      header = cells;
      auto col = [&](const char* name) {
        auto it = std::find(header.begin(), header.end(), name);
        return it == header.end() ? -1 : static_cast<int>(it - header.begin());
      };
      id_col = col("ID");
      name_col = col("Kernel Name");
      grid_col = col("Grid Size");
      block_col = col("Block Size");
      metric_col = col("Metric Name");
      value_col = col("Metric Value");
      if (id_col < 0 || name_col < 0 || metric_col < 0 || value_col < 0)
        throw InputError("ncu report, line " + std::to_string(line_no) +
                         ": the header lacks one of the columns ID, Kernel Name, Metric Name, "
                         "Metric Value (was ncu run with --csv and without --page raw?)");
      continue;
    }
    if (cells.size() < header.size())
      throw InputError("ncu report, line " + std::to_string(line_no) + ": " +
                       std::to_string(cells.size()) + " cells where the header has " +
                       std::to_string(header.size()));
    double id = 0;
    if (!parse_value(cells[id_col], id))
      throw InputError("ncu report, line " + std::to_string(line_no) + ": the ID '" +
                       cells[id_col] + "' is not a number");
    if (kernels.empty() || kernels.back().id != static_cast<int>(id)) {
      ProfiledKernel k;
      k.id = static_cast<int>(id);
      k.name = cells[name_col];
      if (grid_col >= 0) k.grid = cells[grid_col];
      if (block_col >= 0) k.block = cells[block_col];
      kernels.push_back(std::move(k));
    }
    double value = 0;
    if (parse_value(cells[value_col], value)) kernels.back().metrics[cells[metric_col]] = value;
  }
  return kernels;
}

}  // namespace arena
