// CUDA without a GPU: every CUDA task's files compile for the target architecture, and the link
// check works. Runs in CI (nvcc, no GPU).

#include <gtest/gtest.h>

#include "arena_cli.hpp"
#include "core/task_catalog.hpp"

namespace arena {
namespace {

using testing::run_arena;
using testing::source_path;

TEST(CudaCompile, EveryCudaTaskStarterAndReferenceCompiles) {
  auto ids = list_task_ids(source_path("tasks"));
  int cuda = 0;
  for (const auto& id : ids) {
    if (id.rfind("cuda/", 0) != 0) continue;
    ++cuda;
    for (const char* file : {"starter.cu", "reference.cu"}) {
      auto r = run_arena({"-q", "eval", "-t", id, "-s", source_path("tasks/" + id + "/" + file), "--compile-only"}, true);
      EXPECT_EQ(r.exit_code, 0) << id << "/" << file << "\n" << r.output;
      EXPECT_EQ(r.verdict["compile"]["ok"], true) << id << "/" << file;
    }
  }
  EXPECT_GE(cuda, 8) << "the eight core CUDA tasks";
}

TEST(CudaCompile, CublasIsAForbiddenLibraryUnlessTheTaskAllowsIt) {
  auto r = run_arena({"-q", "eval", "-t", "cuda/vector_add_f32", "-s", std::string(ARENA_TEST_DATA) + "/broken/cuda/forbidden_library.cu",
                      "--compile-only"},
                     true);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.verdict["summary"]["failure_class"], "forbidden_library") << r.output;
  EXPECT_EQ(r.verdict["compile"]["forbidden_symbols"][0], "cublasCreate_v2");
}

TEST(CudaCompile, WrongSignatureSaysWhatTheSignatureMustBe) {
  auto r = run_arena({"-q", "eval", "-t", "cuda/vector_add_f32", "-s", source_path("tasks/cpu/vector_add_f32/starter.cpp"),
                      "--compile-only"},
                     true);
  EXPECT_EQ(r.verdict["summary"]["failure_class"], "compile_error");
  EXPECT_NE(r.verdict["compile"]["log"].get<std::string>().find("cudaStream_t stream"), std::string::npos) << r.output;
}

TEST(CudaCompile, RunningWithoutAGpuIsAClearInputError) {
  auto info = run_process({std::string(ARENA_RUNNER_CUDA), "--info", "0"}, 60);
  if (info.exit_code == 0) GTEST_SKIP() << "a GPU is visible here; this test is for machines without one";
  auto r = run_arena({"-q", "eval", "-t", "cuda/vector_add_f32", "-s", source_path("tasks/cuda/vector_add_f32/starter.cu")});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("cannot run cuda solutions on this machine"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--compile-only"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace arena
