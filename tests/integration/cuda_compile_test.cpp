// CUDA without a GPU: every CUDA task's files compile for the target architecture, and the link
// check works. Runs in CI (nvcc, no GPU).

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "arena_cli.hpp"
#include "backends/backend_registry.hpp"
#include "core/subprocess.hpp"
#include "core/task_catalog.hpp"
#include "core/task_loader.hpp"

namespace arena {
namespace {

using testing::run_arena;
using testing::source_path;

TEST(CudaCompile, EveryCudaTaskStarterAndReferenceCompiles) {
  auto ids = list_task_ids(source_path("tasks"));
  int cuda = 0, stubs = 0;
  for (const auto& id : ids) {
    if (id.rfind("cuda/", 0) != 0) continue;
    ++cuda;
    std::vector<std::string> files = {"starter.cu", "reference.cu"};
    if (load_task(source_path("tasks/" + id)).stub) {
      files.push_back("stub.cu");
      ++stubs;
    }
    for (const auto& file : files) {
      auto r = run_arena({"-q", "eval", "-t", id, "-s", source_path("tasks/" + id + "/" + file), "--compile-only"}, true);
      EXPECT_EQ(r.exit_code, 0) << id << "/" << file << "\n" << r.output;
      EXPECT_EQ(r.verdict["compile"]["ok"], true) << id << "/" << file;
    }
  }
  EXPECT_GE(cuda, 24) << "the CUDA suite v1 has 24 tasks";
  EXPECT_GE(stubs, 4) << "at least four tasks also come as spec2cuda";
}

// A backend of the build under test, with the tests' compile cache.
std::unique_ptr<Backend> test_backend(const std::string& name) {
  BackendOptions o;
  o.cache_dir = std::filesystem::path(ARENA_TEST_CACHE_DIR) / "backend";
  o.runner_dir = std::filesystem::path(ARENA_BIN).parent_path();
  return make_backend(name, o);
}

TEST(CudaCompile, ExpertsLinkTheirLibrariesAndSolutionsMayNot) {
  int experts = 0;
  for (const auto& id : list_task_ids(source_path("tasks"))) {
    if (id.rfind("cuda/", 0) != 0) continue;
    Task task = load_task(source_path("tasks/" + id));
    if (!task.expert) continue;
    ++experts;
    auto cuda = test_backend("cuda");
    std::string source = read_file(*task.expert);
    CompileResult as_expert = cuda->compile(task, source, task.all_libraries());
    EXPECT_TRUE(as_expert.ok) << id << ": " << as_expert.log;
    // Header-only libraries (CCCL) leave no symbol to forbid: solutions may use CUB anyway.
    bool links = false;
    for (const auto& l : task.expert_libraries) links = links || l != "cccl";
    if (links) {
      CompileResult as_solution = cuda->compile(task, source, task.libraries);
      EXPECT_FALSE(as_solution.ok) << id << ": the expert links " << task.expert_libraries[0]
                                   << ", which a solution may not";
    }
  }
  EXPECT_GE(experts, 1) << "cuda/gemm_bf16 has a cuBLAS expert";
}

TEST(CudaCompile, HostReferencesCompileForTheCpu) {
  int checked = 0;
  for (const auto& id : list_task_ids(source_path("tasks"))) {
    if (id.rfind("cuda/", 0) != 0) continue;
    Task task = load_task(source_path("tasks/" + id));
    ASSERT_TRUE(task.host_reference) << id << " has no host_reference to validate its reference with";
    CompileResult r = test_backend("cpu")->compile(task, read_file(*task.host_reference), {});
    EXPECT_TRUE(r.ok) << id << ": " << r.log;
    ++checked;
  }
  EXPECT_GE(checked, 8);
}

TEST(CudaCompile, CublasIsAForbiddenLibraryUnlessTheTaskAllowsIt) {
  auto r = run_arena({"-q", "eval", "-t", "cuda/vector_add_f32", "-s", source_path("tests/redteam/cuda/forbidden_library.cu"),
                      "--compile-only"},
                     true);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.verdict["summary"]["failure_class"], "forbidden_library") << r.output;
  EXPECT_EQ(r.verdict["compile"]["forbidden_symbols"][0], "cublasCreate_v2");
}

TEST(CudaCompile, EveryRedTeamCudaCaseCompilesOrFailsItsLinkCheck) {
  YAML::Node manifest = YAML::LoadFile(source_path("tests/redteam/cases.yaml"));
  int checked = 0;
  for (const auto& c : manifest["cases"]) {
    if (c["backend"].as<std::string>() != "cuda") continue;
    const std::string name = c["name"].as<std::string>();
    const bool forbidden = c["expect"]["failure"].IsDefined() && c["expect"]["failure"].as<std::string>() == "forbidden_library";
    auto r = run_arena({"-q", "eval", "-t", c["task"].as<std::string>(), "-s",
                        source_path("tests/redteam/" + c["solution"].as<std::string>()), "--compile-only"},
                       true);
    EXPECT_EQ(r.exit_code, forbidden ? 1 : 0) << name << "\n" << r.output;
    if (forbidden) {
      EXPECT_EQ(r.verdict["summary"]["failure_class"], "forbidden_library") << name << "\n" << r.output;
    } else {
      EXPECT_EQ(r.verdict["compile"]["ok"], true) << name << "\n" << r.output;
    }
    ++checked;
  }
  EXPECT_GE(checked, 8);
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
