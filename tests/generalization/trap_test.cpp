// The trap set: plausible overfit kernels, each correct on its task's visible shapes and caught on
// held-out shapes with the right explanation. CPU traps run in CI (label generalization); CUDA
// traps run on a GPU (label gpu) and skip, saying why, without one.

#include <gtest/gtest.h>

#include <set>

#include "../integration/arena_cli.hpp"

namespace arena {
namespace {

using testing::run_arena;
using testing::source_path;

struct Trap {
  const char* task;
  const char* file;                    // under tests/generalization/
  std::set<std::string> explanations;  // every failing held-out shape gets one of these kinds
};

std::ostream& operator<<(std::ostream& o, const Trap& t) {
  return o << t.file;
}

void expect_caught(const Trap& trap, const std::string& seed) {
  auto r = run_arena({"-q", "eval", "-t", trap.task, "-s",
                      std::string(ARENA_SOURCE_DIR) + "/tests/generalization/" + trap.file,
                      "--shapes", "all", "--seed", seed, "--no-timing"},
                     true, 900);
  ASSERT_TRUE(r.verdict.is_object()) << r.output;
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.verdict["summary"]["correct_visible"], true)
      << trap.file << " must pass the visible shapes\n"
      << r.output;
  int caught = 0;
  for (const auto& s : r.verdict["shapes"]) {
    if (s["set"] != "heldout" || s["status"] == "pass") continue;
    ++caught;
    ASSERT_TRUE(s["explanation_kind"].is_string()) << s.dump(2);
    EXPECT_TRUE(trap.explanations.count(s["explanation_kind"].get<std::string>()))
        << trap.file << " at " << s["params"].dump() << ": explained as " << s["explanation_kind"]
        << ": " << s["explanation"];
    EXPECT_EQ(s["baseline_correct"], true) << "the starter is correct there: a regression";
  }
  EXPECT_GT(caught, 0) << trap.file << " was not caught on any held-out shape of seed " << seed
                       << "\n"
                       << r.output;
  EXPECT_GT(r.verdict["summary"]["heldout"]["regression"].get<int>(), 0);
  std::cout << "[trap] " << trap.file << " seed " << seed << ": caught on " << caught
            << " held-out shape(s)\n";
}

// The test's name: the trap file's stem ("cpu/softmax_no_max.cpp" -> "softmax_no_max").
std::string trap_name(const ::testing::TestParamInfo<Trap>& i) {
  std::string n = i.param.file;
  n = n.substr(n.find('/') + 1);
  return n.substr(0, n.find('.'));
}

class CpuTrap : public ::testing::TestWithParam<Trap> {};

TEST_P(CpuTrap, PassesVisibleAndIsCaughtOnHeldout) {
  expect_caught(GetParam(), "1");
}

INSTANTIATE_TEST_SUITE_P(
    Generalization, CpuTrap,
    ::testing::Values(
        Trap{"cpu/vector_add_f32", "cpu/vector_add_unroll4.cpp", {"boundary_tiles"}},
        Trap{"cpu/softmax_f32", "cpu/softmax_rows_by_8.cpp", {"boundary_tiles", "grid_coverage"}},
        Trap{"cpu/softmax_f32", "cpu/softmax_no_max.cpp", {"unstable_reduction"}},
        Trap{"cpu/transpose_f32", "cpu/transpose_shifted_tile.cpp", {"boundary_tiles", "crash"}},
        Trap{"cpu/sgemm_f32", "cpu/sgemm_k_blocks_of_64.cpp", {"everywhere"}}),
    trap_name);

// Why CUDA traps cannot run here; "" where a GPU is visible.
std::string no_gpu() {
  auto info = run_process({std::string(ARENA_RUNNER_CUDA), "--info", "0"}, 60);
  return info.exit_code == 0 ? "" : "no GPU visible (" + info.output + "): CUDA traps skipped";
}

class CudaTrap : public ::testing::TestWithParam<Trap> {
 protected:
  void SetUp() override {
    if (auto why = no_gpu(); !why.empty()) GTEST_SKIP() << why;
  }
};

class CudaTrapTimed : public ::testing::Test {
 protected:
  void SetUp() override {
    if (auto why = no_gpu(); !why.empty()) GTEST_SKIP() << why;
  }
};

TEST_P(CudaTrap, PassesVisibleAndIsCaughtOnHeldout) {
  expect_caught(GetParam(), "1");
}

const std::vector<Trap> kCudaTraps = {
    Trap{"cuda/softmax_f32", "cuda/softmax_no_max.cu", {"unstable_reduction"}},
    Trap{"cuda/decode_attention_bf16", "cuda/decode_scores_in_shared.cu", {"launch_resources"}},
    Trap{"cuda/vector_add_f32", "cuda/vector_add_unroll4.cu", {"boundary_tiles"}},
    Trap{"cuda/gemm_bf16", "cuda/gemm_k_blocks_of_64.cu", {"everywhere"}},
    Trap{"cuda/vector_add_f32", "cuda/vector_add_fixed_grid.cu", {"grid_coverage", "boundary_tiles"}},
    Trap{"cuda/rmsnorm_bf16", "cuda/rmsnorm_rows_by_4.cu", {"boundary_tiles", "crash"}},
    Trap{"cuda/embedding_gather_bf16", "cuda/embedding_int32_index.cu", {"index_overflow"}}};

INSTANTIATE_TEST_SUITE_P(Generalization, CudaTrap, ::testing::ValuesIn(kCudaTraps), trap_name);

constexpr const char* kCollapseTrap = "cuda/rmsnorm_one_block_rows.cu";

// Without a GPU (CI) the CUDA traps still have to compile for their tasks.
TEST(TrapSources, CudaTrapsCompileWithoutAGpu) {
  std::vector<Trap> all = kCudaTraps;
  all.push_back({"cuda/rmsnorm_bf16", kCollapseTrap, {}});
  for (const auto& trap : all) {
    auto r = run_arena(
        {"-q", "eval", "-t", trap.task, "-s",
         std::string(ARENA_SOURCE_DIR) + "/tests/generalization/" + trap.file, "--compile-only"},
        true, 600);
    EXPECT_EQ(r.exit_code, 0) << trap.file << "\n" << r.output;
  }
}

// A kernel correct everywhere but fast only on shapes like the visible ones: timed, so the
// held-out speedups can collapse below 1 while the visible geomean stays above it.
TEST_F(CudaTrapTimed, RowsLongerThanOneBlockCollapse) {
  auto r = run_arena({"-q", "eval", "-t", "cuda/rmsnorm_bf16", "-s",
                      std::string(ARENA_SOURCE_DIR) + "/tests/generalization/" + kCollapseTrap,
                      "--shapes", "all", "--seed", "1", "--max-time", "0.3"},
                     true, 900);
  ASSERT_TRUE(r.verdict.is_object()) << r.output;
  EXPECT_EQ(r.verdict["summary"]["correct_visible"], true) << r.output;
  EXPECT_EQ(r.verdict["summary"]["correct_heldout"], true) << "correct everywhere, only slow\n"
                                                           << r.output;
  int collapsed = 0;
  for (const auto& s : r.verdict["shapes"])
    if (s["set"] == "heldout" && s["explanation_kind"] == "performance_collapse") {
      ++collapsed;
      EXPECT_LT(s["timing"]["speedup"].get<double>(), 1.0) << s.dump(2);
      std::cout << "[trap] rmsnorm_one_block_rows at " << s["params"].dump() << ": "
                << s["explanation"] << "\n";
    }
  EXPECT_GT(collapsed, 0) << "no held-out shape was explained as a performance collapse\n"
                          << r.output;
}

}  // namespace
}  // namespace arena
