#include "judge/kernel_resources.hpp"

#include <gtest/gtest.h>

namespace arena {
namespace {

// Verbatim from nvcc 13 --resource-usage for sm_90a.
constexpr const char* kLog =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function '_Z1kILi1024EEvPf' for 'sm_90a'\n"
    "ptxas info    : Function properties for _Z1kILi1024EEvPf\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 10 registers, used 1 barriers, 4096 bytes smem\n"
    "ptxas info    : Compile time = 12.220 ms\n"
    "ptxas info    : Compiling entry function '_Z3bigPf' for 'sm_90a'\n"
    "ptxas info    : Function properties for _Z3bigPf\n"
    "    24 bytes stack frame, 16 bytes spill stores, 20 bytes spill loads\n"
    "ptxas info    : Used 255 registers, used 0 barriers\n";

TEST(KernelResources, ReadsEveryEntryFunctionOfTheCompilerReport) {
  auto k = parse_kernel_resources(kLog);
  ASSERT_EQ(k.size(), 2u);
  EXPECT_EQ(k[0].name, "void k<1024>(float*)");
  EXPECT_EQ(k[0].registers, 10);
  EXPECT_EQ(k[0].shared_bytes, 4096);
  EXPECT_EQ(k[0].spill_bytes, 0);
  EXPECT_EQ(k[1].name, "big(float*)");
  EXPECT_EQ(k[1].registers, 255);
  EXPECT_EQ(k[1].shared_bytes, 0);
  EXPECT_EQ(k[1].stack_bytes, 24);
  EXPECT_EQ(k[1].spill_bytes, 36);
}

TEST(KernelResources, AnOrdinaryBuildLogHasNoKernels) {
  EXPECT_TRUE(parse_kernel_resources("").empty());
  EXPECT_TRUE(
      parse_kernel_resources("solution.cu(3): error: identifier \"x\" is undefined\n").empty());
}

TEST(KernelResources, RegistersBoundTheBlockSize) {
  KernelResources k;
  k.registers = 32;
  EXPECT_EQ(max_threads_per_block(k), 1024);
  k.registers = 64;
  EXPECT_EQ(max_threads_per_block(k), 1024);
  k.registers = 128;
  EXPECT_EQ(max_threads_per_block(k), 512);
  k.registers = 255;  // 8160 per warp, rounded up to 8192: 8 warps
  EXPECT_EQ(max_threads_per_block(k), 256);
  k.registers = 72;  // 2304 per warp: 28 warps
  EXPECT_EQ(max_threads_per_block(k), 896);
}

}  // namespace
}  // namespace arena
