// The CUDA judge on a real GPU (label gpu). Skips, saying why, where no GPU is visible.

#include <gtest/gtest.h>

#include "../integration/arena_cli.hpp"

namespace arena {
namespace {

using testing::run_arena;
using testing::source_path;

class CudaJudge : public ::testing::Test {
 protected:
  void SetUp() override {
    auto info = run_process({std::string(ARENA_RUNNER_CUDA), "--info", "0"}, 60);
    if (info.exit_code != 0) GTEST_SKIP() << "no GPU visible (" << info.output << "): CUDA judge tests skipped";
  }
};

std::string broken_cuda(const std::string& name) { return std::string(ARENA_TEST_DATA) + "/broken/cuda/" + name + ".cu"; }

TEST_F(CudaJudge, StarterIsCorrectAndTimed) {
  auto r = run_arena({"-q", "eval", "-t", "cuda/vector_add_f32", "-s", source_path("tasks/cuda/vector_add_f32/starter.cu"),
                      "--max-time", "0.5"},
                     true);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  for (const auto& s : r.verdict["shapes"]) {
    EXPECT_EQ(s["status"], "pass");
    EXPECT_GT(s["timing"]["median_ns"].get<double>(), 0);
    EXPECT_TRUE(s["timing"]["baseline"].is_object());
  }
  EXPECT_EQ(r.verdict["device"]["kind"], "cuda");
  EXPECT_TRUE(r.verdict["flags"].empty()) << r.verdict["flags"];
}

struct GpuCase {
  const char* file;
  const char* failure_class;
};
void PrintTo(const GpuCase& c, std::ostream* os) { *os << c.file << " -> " << c.failure_class; }

class CudaBroken : public CudaJudge, public ::testing::WithParamInterface<GpuCase> {};

TEST_P(CudaBroken, GetsExactlyItsFailureClass) {
  auto r = run_arena({"-q", "eval", "-t", "cuda/vector_add_f32", "-s", broken_cuda(GetParam().file), "--no-timing",
                      "--timeout", "3"},
                     true);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.verdict["summary"]["failure_class"], GetParam().failure_class) << r.output;
}

INSTANTIATE_TEST_SUITE_P(Gpu, CudaBroken,
                         ::testing::Values(GpuCase{"illegal_address", "crash"},
                                           GpuCase{"too_much_shared_memory", "launch_error"},
                                           GpuCase{"endless_loop", "timeout"},
                                           GpuCase{"write_past_end", "out_of_bounds"},
                                           GpuCase{"nan_output", "nan_inf"}),
                         [](const auto& info) { return std::string(info.param.file); });

TEST_F(CudaJudge, WorkOnASideStreamIsFlagged) {
  auto r = run_arena({"-q", "eval", "-t", "cuda/vector_add_f32", "-s", broken_cuda("side_stream"), "--max-time", "0.5"}, true);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.verdict["summary"]["correct_visible"], true);
  bool flagged = false;
  for (const auto& f : r.verdict["flags"]) flagged = flagged || f["name"] == "work_outside_stream";
  EXPECT_TRUE(flagged) << r.output;
}

}  // namespace
}  // namespace arena
