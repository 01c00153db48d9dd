#include "report/profile_table.hpp"

#include "report/table.hpp"

namespace arena {
namespace {

std::string pct(double v) {
  return v < 0 ? "-" : format_number(v) + " %";
}

std::string bytes(double v) {
  if (v < 0) return "-";
  if (v < 1024) return format_number(v) + " B";
  if (v < 1024 * 1024) return format_number(v / 1024) + " KiB";
  if (v < 1024.0 * 1024 * 1024) return format_number(v / (1024 * 1024)) + " MiB";
  return format_number(v / (1024.0 * 1024 * 1024)) + " GiB";
}

std::string shorter(const std::string& name, size_t max) {
  return name.size() <= max ? name : name.substr(0, max - 3) + "...";
}

}  // namespace

std::string render_profile(const ProfileResult& p) {
  std::string out = "profile on " + p.shape.label() +
                    " (Nsight Compute, one call, caches flushed before each kernel)\n";
  if (!p.ok) {
    out += "no profile: " + p.error + "\n";
    if (!p.tool_output.empty()) out += p.tool_output + (p.tool_output.back() == '\n' ? "" : "\n");
    return out;
  }
  Table t({"#", "kernel", "grid", "block", "time", "compute", "memory", "DRAM", "L2 hit",
           "occupancy", "theoretical", "regs", "smem", "DRAM bytes"});
  for (const auto& k : p.kernels) {
    double smem = -1;
    if (k.get("launch__shared_mem_per_block_static") >= 0 ||
        k.get("launch__shared_mem_per_block_dynamic") >= 0)
      smem = std::max(0.0, k.get("launch__shared_mem_per_block_static")) +
             std::max(0.0, k.get("launch__shared_mem_per_block_dynamic"));
    double time = k.get("gpu__time_duration.sum");
    double regs = k.get("launch__registers_per_thread");
    t.add_row({std::to_string(k.id), shorter(k.name, 48), k.grid, k.block,
               time < 0 ? "-" : format_duration_ns(time),
               pct(k.get("sm__throughput.avg.pct_of_peak_sustained_elapsed")),
               pct(k.get("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed")),
               pct(k.get("dram__throughput.avg.pct_of_peak_sustained_elapsed")),
               pct(k.get("lts__t_sector_hit_rate.pct")),
               pct(k.get("sm__warps_active.avg.pct_of_peak_sustained_active")),
               pct(k.get("sm__maximum_warps_per_active_cycle_pct")),
               regs < 0 ? "-" : format_number(regs), bytes(smem), bytes(k.get("dram__bytes.sum"))});
  }
  out += t.render();
  out +=
      "compute and memory are percentages of the device's peak (speed of light): one of them near "
      "80 % or more "
      "bounds the kernel; both low means it waits (latency, too few warps, synchronization). "
      "occupancy is the "
      "warps achieved, theoretical what registers, shared memory and block size allow.\n";
  return out;
}

}  // namespace arena
