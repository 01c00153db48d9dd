// NVML telemetry and the calibration on a real GPU (label gpu). Skips where no GPU is visible.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../integration/arena_cli.hpp"
#include "backends/cuda/nvml.hpp"
#include "core/subprocess.hpp"

namespace arena {
namespace {

using testing::run_arena;
using testing::source_path;

class GpuTelemetry : public ::testing::Test {
 protected:
  void SetUp() override {
    auto info = run_process({std::string(ARENA_RUNNER_CUDA), "--info", "0"}, 60);
    if (info.exit_code != 0) GTEST_SKIP() << "no GPU visible (" << info.output << "): telemetry tests skipped";
    auto at = info.output.find("pci_bus_id=");
    ASSERT_NE(at, std::string::npos) << info.output;
    at += 11;
    bus_id_ = info.output.substr(at, info.output.find('\n', at) - at);
  }
  std::string bus_id_;
};

// Read after every timed call, so it must be cheap next to the time budget of a shape.
TEST_F(GpuTelemetry, NvmlFindsTheRunnersDeviceAndReadsQuickly) {
  NvmlDevice d(bus_id_);
  ASSERT_EQ(d.error(), "") << bus_id_;
  std::string why;
  ASSERT_TRUE(d.read(&why)) << why;
  double t0 = now_seconds();
  for (int i = 0; i < 200; ++i) ASSERT_TRUE(d.read());
  double per_read_us = (now_seconds() - t0) / 200 * 1e6;
  std::cout << "one telemetry reading: " << per_read_us << " us\n";
  EXPECT_LT(per_read_us, 2000);
}

TEST_F(GpuTelemetry, DeviceShowsClocksAndThrottleReasons) {
  auto r = run_arena({"device"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("telemetry_source: nvml"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("telemetry: SM "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("clocks held by: "), std::string::npos) << r.output;
}

TEST_F(GpuTelemetry, VerdictCarriesTheClocksOfTheTimedCalls) {
  auto r = run_arena({"-q", "eval", "-t", "cuda/vector_add_f32", "-s", source_path("tasks/cuda/vector_add_f32/starter.cu"),
                      "--max-time", "0.3"},
                     true);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const auto& s : r.verdict["shapes"]) {
    const auto& t = s["timing"]["telemetry"];
    ASSERT_TRUE(t.is_object()) << s["timing"];
    EXPECT_GT(t["sm_clock_mhz"].get<double>(), 100);
    EXPECT_GT(t["mem_clock_mhz"].get<double>(), 100);
    EXPECT_GT(t["max_temperature_c"].get<double>(), 0);
    EXPECT_GT(t["power_w"].get<double>(), 0);
    EXPECT_GT(t["readings"].get<int>(), 0);
    EXPECT_TRUE(s["timing"]["baseline"]["telemetry"].is_object());
  }
  ASSERT_TRUE(r.verdict["telemetry"].is_object()) << r.verdict.dump(2);
  EXPECT_GT(r.verdict["telemetry"]["sm_clock_mhz"].get<double>(), 100);
}

TEST_F(GpuTelemetry, CalibrateMeasuresBandwidthAndGemmRates) {
  auto json = std::filesystem::temp_directory_path() / ("arena-calibrate-" + std::to_string(getpid()) + ".json");
  auto r = run_arena({"device", "--calibrate", "--json", json.string()}, false, 600);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  ASSERT_TRUE(std::filesystem::exists(json)) << r.output;
  std::ifstream in(json);
  auto j = nlohmann::json::parse(in);
  std::filesystem::remove(json);
  const auto& c = j["cuda"]["calibration"];
  ASSERT_FALSE(c.contains("error")) << c;
  for (const char* key : {"memory_gbytes_per_s", "bf16_tflops", "tf32_tflops", "fp32_tflops"})
    EXPECT_GT(std::stod(c[key].get<std::string>()), 0) << key;
  EXPECT_EQ(j["cuda"]["compared"].size(), 4u) << j["cuda"];
  // On a device of the peak table, a real measurement is a sane fraction of the data sheet.
  for (const auto& row : j["cuda"]["compared"])
    if (!row["fraction"].is_null()) {
      EXPECT_GT(row["fraction"].get<double>(), 0.3) << row;
      EXPECT_LT(row["fraction"].get<double>(), 1.1) << row;
    }
  std::cout << r.output;
}

}  // namespace
}  // namespace arena
