// arena device: what the judge knows about the machine's devices, their state now (telemetry),
// and with --calibrate what they really do against the peak table.

#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/context.hpp"
#include "core/json_text.hpp"
#include "core/subprocess.hpp"
#include "core/task.hpp"
#include "judge/calibration.hpp"
#include "judge/device_lock.hpp"
#include "judge/window_overhead.hpp"

namespace arena::cli {
namespace {

struct DeviceOptions {
  bool calibrate = false;
  std::string json_path;
};

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

nlohmann::json peaks_json(const std::optional<DevicePeaks>& p) {
  if (!p) return nullptr;
  return {{"name", p->name},
          {"memory_gbytes_per_s", p->memory_gbytes_per_s},
          {"fp32_tflops", p->fp32_tflops},
          {"tf32_tflops", p->tf32_tflops},
          {"bf16_tflops", p->bf16_tflops},
          {"fp8_tflops", p->fp8_tflops},
          {"int8_tops", p->int8_tops}};
}

nlohmann::json telemetry_json(const std::optional<DeviceTelemetry>& t) {
  if (!t) return nullptr;
  return {{"sm_clock_mhz", t->sm_clock_mhz},
          {"mem_clock_mhz", t->mem_clock_mhz},
          {"temperature_c", t->temperature_c},
          {"power_w", t->power_w},
          {"throttle_reasons", throttle_reason_names(t->throttle_reasons)}};
}

// Runs the calibration and prints measured against peak; false when it could not run.
bool print_calibration(const Backend& b, nlohmann::json& out) {
  if (b.name() != "cuda") {
    std::cout << "  calibrate: not available for CPU devices\n";
    out["calibration"] = {{"error", "not available for CPU devices"}};
    return true;  // nothing to measure there: not a failure
  }
  if (b.unavailable().empty())
    std::cout << "  calibrating: copy bandwidth, bf16/tf32/fp32 GEMM at 8192³ (cuBLAS)...\n"
              << std::flush;
  std::map<std::string, std::string> measured;
  {
    DeviceLock lock(b.device_key(), [](const std::string& who) {
      std::cout << "  waiting for the device: " << who << "\n" << std::flush;
    });
    measured = b.calibrate();
  }
  out["calibration"] = measured;
  if (auto e = measured.find("error"); e != measured.end()) {
    std::cout << "  calibrate: failed: " << e->second << "\n";
    return false;
  }
  auto peaks = b.peaks();
  auto rows = compare_calibration(measured, peaks);
  std::cout << "  measured"
            << (peaks ? " vs the peak row " + peaks->name : " (no peak row for this device)")
            << ":\n";
  nlohmann::json jrows = nlohmann::json::array();
  for (const auto& r : rows) {
    std::cout << "    " << std::left << std::setw(15) << r.what << std::right << std::setw(9)
              << fixed(r.measured, 1) << " " << r.unit;
    if (r.peak)
      std::cout << "  of " << fixed(*r.peak, 0) << " " << r.unit << "  = " << fixed(*r.fraction, 2);
    std::cout << "\n";
    jrows.push_back(
        {{"key", r.key},
         {"what", r.what},
         {"unit", r.unit},
         {"measured", r.measured},
         {"peak", r.peak ? nlohmann::json(*r.peak) : nlohmann::json(nullptr)},
         {"fraction", r.fraction ? nlohmann::json(*r.fraction) : nlohmann::json(nullptr)}});
  }
  out["compared"] = jrows;
  if (rows.empty()) {
    std::cout << "  calibrate: arena-calibrate reported no rate\n";
    return false;
  }
  return true;
}

int run_device(const GlobalOptions& global, const DeviceOptions& o) {
  int status = kExitCorrect;
  nlohmann::json all = nlohmann::json::object();
  for (const char* backend : {"cpu", "cuda"}) {
    nlohmann::json& out = all[backend];
    Task probe;
    probe.backend = backend;
    std::unique_ptr<Backend> b;
    try {
      b = backend_for(probe, global);
    } catch (const std::exception& e) {
      std::cout << backend << ": " << e.what() << "\n\n";
      out = {{"error", e.what()}};
      if (o.calibrate && std::string(backend) == "cuda") status = kExitNotCorrect;
      continue;
    }
    std::cout << backend << ":\n";
    for (const auto& [k, v] : b->device()) std::cout << "  " << k << ": " << v << "\n";
    out["device"] = b->device();
    auto peaks = b->peaks();
    if (peaks)
      std::cout << "  peak row: " << peaks->name << ": memory " << peaks->memory_gbytes_per_s
                << " GB/s, fp32 " << peaks->fp32_tflops << ", tf32 " << peaks->tf32_tflops
                << ", bf16 " << peaks->bf16_tflops << ", fp8 " << peaks->fp8_tflops
                << " TFLOP/s (dense)\n";
    else
      std::cout << "  peak row: none (no roofline for this device)\n";
    out["peaks"] = peaks_json(peaks);
    if (!b->times_on_host_clock()) {
      const auto info = b->device();
      const auto name = info.find("name");
      const auto overhead = window_overhead_to_apply(name == info.end() ? "" : name->second);
      if (overhead)
        std::cout << "  timing: event windows less " << fixed(*overhead, 0)
                  << " ns, the window's fixed part (ARENA_WINDOW_OVERHEAD_NS overrides)\n";
      else
        std::cout
            << "  timing: whole event windows (no measured window overhead for this device)\n";
      out["window_overhead_ns"] = overhead ? nlohmann::json(*overhead) : nlohmann::json(nullptr);
    }
    auto t = b->telemetry();
    if (t) {
      std::cout << "  telemetry: " << describe_telemetry(*t) << "\n";
    } else {
      std::string why = b->telemetry_unavailable();
      std::cout << "  telemetry: none (" << (why.empty() ? "no reading" : why) << ")\n";
      out["telemetry_unavailable"] = why;
    }
    out["telemetry"] = telemetry_json(t);
    std::string why = b->unavailable();
    if (!why.empty()) {
      std::cout << "  (cannot run solutions here: " << why << ")\n";
      if (std::string(backend) == "cuda") status = kExitNotCorrect;
    }
    if (o.calibrate && !print_calibration(*b, out)) status = kExitNotCorrect;
    std::cout << "\n";
  }
  if (!o.json_path.empty()) {
    try {
      write_file_atomic(o.json_path, json_text(all, 2) + "\n");
    } catch (const std::exception& e) {
      std::cerr << "error: cannot write " << o.json_path << ": " << e.what() << "\n";
      return kExitInternalError;
    }
  }
  return status;
}

}  // namespace

Runner add_device_command(CLI::App& app, const GlobalOptions& global) {
  CLI::App* cmd = app.add_subcommand(
      "device", "Show the devices the judge would use: CPU, and the GPU chosen by --device");
  auto o = std::make_shared<DeviceOptions>();
  cmd->add_flag(
      "--calibrate", o->calibrate,
      "Measure the GPU's copy bandwidth and GEMM rates (arena-calibrate) against the peak table");
  cmd->add_option("--json", o->json_path, "Also write everything shown as JSON to FILE");
  cmd->footer(
      "Exit codes: 0 every built backend can run here (and, with --calibrate, the GPU was "
      "measured), 1 the GPU "
      "cannot (none visible, no CUDA in this build, or the calibration failed), 3 internal error.");
  return [&global, o] { return run_device(global, *o); };
}

}  // namespace arena::cli
