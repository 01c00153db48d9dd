#include "judge/freivalds.hpp"

#include <gtest/gtest.h>

#include <cstring>

#include "core/error.hpp"
#include "core/task_loader.hpp"
#include "judge/input_generator.hpp"
#include "task_files.hpp"

namespace arena {
namespace {

using testing::TempTask;

std::string gemm_yaml(const std::string& b_shape, const std::string& product) {
  return R"y(name: mm
backend: cpu
category: cpu2cpu
params:
  batch: {min: 1, max: 8}
  M: {min: 1, max: 4096}
  N: {min: 1, max: 4096}
  K: {min: 1, max: 4096}
tensors:
  - {name: A, dtype: fp32, role: input, shape: [batch, M, K]}
  - {name: B, dtype: fp32, role: input, shape: )y" +
         b_shape + R"y(}
  - {name: s, dtype: fp32, role: input, shape: [1]}
  - {name: C, dtype: fp32, role: output, shape: [batch, M, N]}
tolerance:
  fp32: {atol: 1e-5, rtol: 1e-5}
flops: "2 * batch * M * N * K"
bytes: "4 * batch * (M * K + K * N + M * N)"
visible:
  - {batch: 2, M: 67, N: 45, K: 300}
product: )y" +
         product + R"y(
reference: reference.cpp
starter: starter.cpp
)y";
}

// C = s · A · B (or A · Bᵀ) in fp64, stored as fp32.
std::vector<float> product(const std::vector<HostBuffer>& in, int64_t batch, int64_t m, int64_t n,
                           int64_t k, bool bt) {
  auto f = [](const HostBuffer& b) { return reinterpret_cast<const float*>(b.data()); };
  const float *a = f(in[0]), *b = f(in[1]), s = f(in[2])[0];
  std::vector<float> c(static_cast<size_t>(batch * m * n));
  for (int64_t q = 0; q < batch; ++q)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double acc = 0;
        for (int64_t kk = 0; kk < k; ++kk)
          acc += double(a[(q * m + i) * k + kk]) *
                 (bt ? b[(q * n + j) * k + kk] : b[(q * k + kk) * n + j]);
        c[static_cast<size_t>((q * m + i) * n + j)] = static_cast<float>(acc * s);
      }
  return c;
}

TEST(Freivalds, ARightProductPassesAndAWrongBlockOrASkippedKDoesNot) {
  for (bool transposed : {false, true}) {
    TempTask t{gemm_yaml(
        transposed ? "[batch, N, K]" : "[batch, K, N]",
        std::string("{out: C, a: A, b: B, scales: [s]") + (transposed ? ", b_layout: nk}" : "}"))};
    Task task = load_task(t.dir());
    ASSERT_TRUE(task.product);
    const Shape& shape = task.visible[0];
    auto inputs = generate_inputs(task, shape, 5);
    auto c = product(inputs, 2, 67, 45, 300, transposed);
    EXPECT_TRUE(freivalds_check(task, shape, inputs, c.data(), 1).empty())
        << "transposed " << transposed;

    auto tile = c;  // one 8x8 tile of the second batch is garbage
    for (int i = 40; i < 48; ++i)
      for (int j = 8; j < 16; ++j) tile[static_cast<size_t>((67 + i) * 45 + j)] *= -1.5f;
    auto p = freivalds_check(task, shape, inputs, tile.data(), 1);
    ASSERT_EQ(p.size(), 1u);
    EXPECT_NE(p[0].find("rows of 'C' disagree"), std::string::npos) << p[0];
    EXPECT_NE(p[0].find("of batch 1"), std::string::npos) << p[0];

    // The last 64 of K skipped: every element off by a little, systematically.
    auto short_k = inputs;
    auto* a = reinterpret_cast<float*>(short_k[0].data());
    for (int64_t row = 0; row < 2 * 67; ++row)
      for (int64_t kk = 236; kk < 300; ++kk) a[row * 300 + kk] = 0;
    auto c_short = product(short_k, 2, 67, 45, 300, transposed);
    EXPECT_FALSE(freivalds_check(task, shape, inputs, c_short.data(), 2).empty())
        << "transposed " << transposed;
  }
}

TEST(Freivalds, TheTaskFileMustNameMatricesOfTheRightRoles) {
  TempTask unknown{gemm_yaml("[batch, K, N]", "{out: C, a: A, b: X}")};
  EXPECT_THROW(load_task(unknown.dir()), InputError);
  TempTask wrong_role{gemm_yaml("[batch, K, N]", "{out: A, a: A, b: B}")};
  try {
    load_task(wrong_role.dir());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'A' must be an output"), std::string::npos) << e.what();
  }
  TempTask layout{gemm_yaml("[batch, K, N]", "{out: C, a: A, b: B, b_layout: kk}")};
  EXPECT_THROW(load_task(layout.dir()), InputError);
}

}  // namespace
}  // namespace arena
