// arena device with and without a GPU: it always describes the CPU, says whether telemetry is
// read and why not, and --calibrate refuses the CPU and (without a GPU) fails with a reason.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "scoped_env.hpp"
#include "arena_cli.hpp"

namespace arena {
namespace {

using testing::run_arena;
using testing::source_path;

std::filesystem::path temp_json(const char* name) {
  return std::filesystem::temp_directory_path() / (std::string(name) + "-" + std::to_string(getpid()) + ".json");
}

nlohmann::json read_json(const std::filesystem::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

TEST(DeviceCommand, DescribesTheCpuAndSaysWhyThereIsNoCpuTelemetry) {
  auto r = run_arena({"device"});
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.output;
  EXPECT_NE(r.output.find("cpu:\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("telemetry: none (the cpu backend reads no device telemetry)"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("calibrat"), std::string::npos) << "no calibration unless asked\n" << r.output;
#ifdef ARENA_WITH_CUDA
  // The GPU, if any, either reports its telemetry or says why not.
  EXPECT_NE(r.output.find("cuda:\n"), std::string::npos) << r.output;
  size_t cuda = r.output.find("cuda:\n");
  EXPECT_NE(r.output.find("  telemetry: ", cuda), std::string::npos) << r.output;
#endif
}

#ifdef ARENA_WITH_CUDA
// The GPU's section says whether its times are whole event windows or less the window's fixed
// part, and which: an override is shown as the value used.
TEST(DeviceCommand, SaysWhatComesOffTheGpusEventWindows) {
  const auto json = temp_json("device-overhead");
  testing::ScopedEnv override("ARENA_WINDOW_OVERHEAD_NS", "900");
  auto r = run_arena({"device", "--json", json.string()});
  size_t cuda = r.output.find("cuda:\n");
  ASSERT_NE(cuda, std::string::npos) << r.output;
  EXPECT_NE(r.output.find("  timing: event windows less 900 ns", cuda), std::string::npos) << r.output;
  EXPECT_EQ(read_json(json)["cuda"]["window_overhead_ns"], 900.0);
  EXPECT_FALSE(read_json(json)["cpu"].contains("window_overhead_ns"));  // the CPU's clock is the host's
  std::filesystem::remove(json);
}
#endif

#ifdef ARENA_WITH_CUDA
// The GPU's section names the hardware queues of the processes that run only trusted code (the
// reference's runner, the device helper), with or without a GPU: one by default, an override shown
// as such.
TEST(DeviceCommand, NamesTheTrustedRunnersHardwareQueues) {
  auto plain = run_arena({"device"});
  size_t cuda = plain.output.find("cuda:\n");
  ASSERT_NE(cuda, std::string::npos) << plain.output;
  EXPECT_NE(plain.output.find("  trusted_runner: CUDA_DEVICE_MAX_CONNECTIONS=1 (the default)", cuda), std::string::npos)
      << plain.output;
  testing::ScopedEnv driver("ARENA_TRUSTED_CONNECTIONS", "0");
  auto r = run_arena({"device"});
  EXPECT_NE(r.output.find("  trusted_runner: the driver's default hardware queues (ARENA_TRUSTED_CONNECTIONS)"),
            std::string::npos)
      << r.output;
}
#endif

TEST(DeviceCommand, CalibrateWithoutAGpuSaysSoAndFails) {
  if (run_arena({"device"}).exit_code == 0) GTEST_SKIP() << "a GPU is usable here: tests/gpu calibrates it";
  auto json = temp_json("arena-device");
  auto r = run_arena({"device", "--calibrate", "--json", json.string()});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("calibrate: not available for CPU devices"), std::string::npos) << r.output;
  ASSERT_TRUE(std::filesystem::exists(json)) << r.output;
  auto j = read_json(json);
  std::filesystem::remove(json);
  EXPECT_EQ(j["cpu"]["calibration"]["error"], "not available for CPU devices");
  EXPECT_TRUE(j["cpu"]["telemetry"].is_null());
  EXPECT_EQ(j["cpu"]["device"]["kind"], "cpu");
  // The GPU side: no device (or no CUDA in this build) is an error with its reason, never a crash.
  EXPECT_TRUE(j["cuda"].contains("error") || j["cuda"]["calibration"].contains("error")) << j["cuda"];
  EXPECT_TRUE(j["cuda"]["telemetry"].is_null()) << j["cuda"];
}

TEST(DeviceCommand, CpuVerdictHasNoTelemetry) {
  auto r = run_arena({"-q", "eval", "-t", "cpu/vector_add_f32", "-s", source_path("tasks/cpu/vector_add_f32/starter.cpp"),
                      "--max-time", "0.1"},
                     true);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ASSERT_TRUE(r.verdict.contains("telemetry")) << r.verdict.dump(2);
  EXPECT_TRUE(r.verdict["telemetry"].is_null());
  const auto& timing = r.verdict["shapes"][0]["timing"];
  ASSERT_TRUE(timing.contains("telemetry")) << timing;
  EXPECT_TRUE(timing["telemetry"].is_null());
  EXPECT_TRUE(timing["baseline"]["telemetry"].is_null());
}

}  // namespace
}  // namespace arena
