#include "core/signature.hpp"

#include <gtest/gtest.h>

#include "core/task_loader.hpp"
#include "task_files.hpp"

namespace arena {
namespace {

TEST(Signature, InputsAreConstThenOutputsThenScalars) {
  testing::TempTask t(testing::valid_task_yaml());
  Task task = load_task(t.dir());
  EXPECT_EQ(signature_declaration(task, SignatureFlavor::kCpu),
            "void vadd(const float* a, const float* b, float* out, int64_t n)");
  EXPECT_EQ(signature_declaration(task, SignatureFlavor::kCuda),
            "void vadd(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream)");
}

TEST(Signature, HeaderDeclaresTheEntryWithCLinkage) {
  testing::TempTask t(testing::valid_task_yaml());
  Task task = load_task(t.dir());
  std::string h = signature_header(task, SignatureFlavor::kCpu);
  EXPECT_NE(h.find("extern \"C\""), std::string::npos);
  EXPECT_NE(h.find(signature_declaration(task, SignatureFlavor::kCpu) + ";"), std::string::npos);
  EXPECT_NE(h.find("arena_bf16_to_float"), std::string::npos);
}

TEST(Signature, ShimPassesEveryArgumentInOrder) {
  testing::TempTask t(testing::replace(testing::valid_task_yaml(), "flops:",
                                       "scalars:\n  - {name: n}\n  - {name: eps, type: float, value: \"0.5\"}\nflops:"));
  Task task = load_task(t.dir());
  std::string s = invoke_shim(task, SignatureFlavor::kCpu);
  EXPECT_NE(s.find("static_cast<const float*>(ptrs[0])"), std::string::npos) << s;
  EXPECT_NE(s.find("static_cast<float*>(ptrs[2])"), std::string::npos) << s;
  EXPECT_NE(s.find("static_cast<int64_t>(scalars[0].i)"), std::string::npos) << s;
  EXPECT_NE(s.find("static_cast<float>(scalars[1].f)"), std::string::npos) << s;
}

}  // namespace
}  // namespace arena
