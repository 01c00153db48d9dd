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
  const char* file;                     // under tests/generalization/
  std::set<std::string> explanations;   // every failing held-out shape gets one of these kinds
};

std::ostream& operator<<(std::ostream& o, const Trap& t) { return o << t.file; }

void expect_caught(const Trap& trap, const std::string& seed) {
  auto r = run_arena({"-q", "eval", "-t", trap.task, "-s", std::string(ARENA_SOURCE_DIR) + "/tests/generalization/" + trap.file,
                      "--shapes", "all", "--seed", seed, "--no-timing"},
                     true, 900);
  ASSERT_TRUE(r.verdict.is_object()) << r.output;
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.verdict["summary"]["correct_visible"], true) << trap.file << " must pass the visible shapes\n" << r.output;
  int caught = 0;
  for (const auto& s : r.verdict["shapes"]) {
    if (s["set"] != "heldout" || s["status"] == "pass") continue;
    ++caught;
    ASSERT_TRUE(s["explanation_kind"].is_string()) << s.dump(2);
    EXPECT_TRUE(trap.explanations.count(s["explanation_kind"].get<std::string>()))
        << trap.file << " at " << s["params"].dump() << ": explained as " << s["explanation_kind"] << ": " << s["explanation"];
    EXPECT_EQ(s["baseline_correct"], true) << "the starter is correct there: a regression";
  }
  EXPECT_GT(caught, 0) << trap.file << " was not caught on any held-out shape of seed " << seed << "\n" << r.output;
  EXPECT_GT(r.verdict["summary"]["heldout"]["regression"].get<int>(), 0);
  std::cout << "[trap] " << trap.file << " seed " << seed << ": caught on " << caught << " held-out shape(s)\n";
}

// The test's name: the trap file's stem ("cpu/softmax_no_max.cpp" -> "softmax_no_max").
std::string trap_name(const ::testing::TestParamInfo<Trap>& i) {
  std::string n = i.param.file;
  n = n.substr(n.find('/') + 1);
  return n.substr(0, n.find('.'));
}

class CpuTrap : public ::testing::TestWithParam<Trap> {};

TEST_P(CpuTrap, PassesVisibleAndIsCaughtOnHeldout) { expect_caught(GetParam(), "1"); }

INSTANTIATE_TEST_SUITE_P(
    Generalization, CpuTrap,
    ::testing::Values(Trap{"cpu/vector_add_f32", "cpu/vector_add_unroll4.cpp", {"boundary_tiles"}},
                      Trap{"cpu/softmax_f32", "cpu/softmax_rows_by_8.cpp", {"boundary_tiles", "grid_coverage"}},
                      Trap{"cpu/softmax_f32", "cpu/softmax_no_max.cpp", {"unstable_reduction"}},
                      Trap{"cpu/transpose_f32", "cpu/transpose_shifted_tile.cpp", {"boundary_tiles", "crash"}},
                      Trap{"cpu/sgemm_f32", "cpu/sgemm_k_blocks_of_64.cpp", {"everywhere"}}),
    trap_name);

class CudaTrap : public ::testing::TestWithParam<Trap> {
 protected:
  void SetUp() override {
    auto info = run_process({std::string(ARENA_RUNNER_CUDA), "--info", "0"}, 60);
    if (info.exit_code != 0) GTEST_SKIP() << "no GPU visible (" << info.output << "): CUDA traps skipped";
  }
};

TEST_P(CudaTrap, PassesVisibleAndIsCaughtOnHeldout) { expect_caught(GetParam(), "1"); }

INSTANTIATE_TEST_SUITE_P(
    Generalization, CudaTrap,
    ::testing::Values(Trap{"cuda/softmax_f32", "cuda/softmax_no_max.cu", {"unstable_reduction"}},
                      Trap{"cuda/decode_attention_bf16", "cuda/decode_scores_in_shared.cu", {"launch_resources"}},
                      Trap{"cuda/vector_add_f32", "cuda/vector_add_unroll4.cu", {"boundary_tiles"}},
                      Trap{"cuda/gemm_bf16", "cuda/gemm_k_blocks_of_64.cu", {"everywhere"}}),
    trap_name);

}  // namespace
}  // namespace arena
