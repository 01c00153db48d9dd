#include "judge/checker.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace arena {
namespace {

TensorSpec fp32_output() {
  TensorSpec t;
  t.name = "out";
  t.dtype = DType::kFp32;
  t.role = Role::kOutput;
  return t;
}

const Tolerance kTol{1e-5, 1e-5};
const Poison kPoison = make_poison(DType::kFp32, 0);

std::vector<float> ramp(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = 1.0f + static_cast<float>(i);
  return v;
}

TEST(Checker, EqualOutputsPass) {
  auto e = ramp(100);
  OutputCheck c = check_output(fp32_output(), {100}, e.data(), e.data(), kTol, kPoison);
  EXPECT_TRUE(c.ok());
  EXPECT_EQ(c.elements, 100);
}

TEST(Checker, ErrorsWithinAtolPlusRtolPass) {
  auto e = ramp(10);
  auto g = e;
  g[3] += 1e-5f + 1e-5f * e[3] * 0.9f;
  EXPECT_TRUE(check_output(fp32_output(), {10}, g.data(), e.data(), kTol, kPoison).ok());
  g[3] = e[3] + 1e-3f;
  EXPECT_FALSE(check_output(fp32_output(), {10}, g.data(), e.data(), kTol, kPoison).ok());
}

TEST(Checker, LocatesTheFirstMismatchWithCoordinates) {
  auto e = ramp(6 * 40);
  auto g = e;
  g[2 * 40 + 5] = -1;
  OutputCheck c = check_output(fp32_output(), {6, 40}, g.data(), e.data(), kTol, kPoison);
  ASSERT_TRUE(c.first.has_value());
  EXPECT_EQ(c.first->index, 85);
  EXPECT_EQ(c.first->coords, (std::vector<int64_t>{2, 5}));
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_EQ(c.where, "interior");
}

TEST(Checker, MismatchesInTheLastPartialTileAreTail) {
  auto e = ramp(100);
  auto g = e;
  g[99] = 0;
  g[97] = 0;  // 96..99 is the partial tile past 3 x 32
  EXPECT_EQ(check_output(fp32_output(), {100}, g.data(), e.data(), kTol, kPoison).where, "tail");
}

TEST(Checker, ADimensionOfOneIsATailOnlyWhenAllOfItIsWrong) {
  // One row: its index 0 is also its last, which made every mismatch of a 1 x N output "tail"
  // (a reduction error in the middle of the row explained as a missing bounds check).
  auto e = ramp(1000);
  auto g = e;
  g[421] = 0;
  g[700] = 0;
  EXPECT_EQ(check_output(fp32_output(), {1, 1000}, g.data(), e.data(), kTol, kPoison).where, "interior");
  g = e;
  g[999] = 0;  // past 31 x 32 in the row: still the row's tail
  EXPECT_EQ(check_output(fp32_output(), {1, 1000}, g.data(), e.data(), kTol, kPoison).where, "tail");
  // The whole of a 1 x N output wrong, or a single element: its rows' (its) partial tile.
  std::vector<float> zeros(1000, 0.0f);
  EXPECT_TRUE(check_output(fp32_output(), {1, 1000}, zeros.data(), e.data(), kTol, kPoison).only_tail);
  std::vector<float> one = {1.0f}, zero = {0.0f};
  EXPECT_TRUE(check_output(fp32_output(), {1}, zero.data(), one.data(), kTol, kPoison).only_tail);
}

TEST(Checker, NamesDegeneratePatterns) {
  auto e = ramp(64);
  std::vector<float> zeros(64, 0.0f), constant(64, 3.0f), unwritten(64);
  fill_poison(kPoison, unwritten.data(), 64);
  EXPECT_EQ(check_output(fp32_output(), {64}, zeros.data(), e.data(), kTol, kPoison).pattern, "zeros");
  EXPECT_EQ(check_output(fp32_output(), {64}, constant.data(), e.data(), kTol, kPoison).pattern, "constant");
  OutputCheck u = check_output(fp32_output(), {64}, unwritten.data(), e.data(), kTol, kPoison);
  EXPECT_EQ(u.pattern, "unwritten");
  EXPECT_EQ(u.unwritten, 64);
  EXPECT_EQ(u.non_finite, 0);  // the poison is not a NaN the solution produced
  EXPECT_EQ(u.where, "everywhere");
}

TEST(Checker, NanPassesOnlyWhereTheReferenceIsNan) {
  std::vector<float> e = {1, NAN, INFINITY, 4};
  std::vector<float> g = {1, NAN, INFINITY, 4};
  EXPECT_TRUE(check_output(fp32_output(), {4}, g.data(), e.data(), kTol, kPoison).ok());
  g[0] = NAN;
  OutputCheck c = check_output(fp32_output(), {4}, g.data(), e.data(), kTol, kPoison);
  EXPECT_EQ(c.non_finite, 1);
  g[0] = 1;
  g[2] = -INFINITY;
  EXPECT_FALSE(check_output(fp32_output(), {4}, g.data(), e.data(), kTol, kPoison).ok());
  g[2] = INFINITY;
  g[1] = 2;
  EXPECT_FALSE(check_output(fp32_output(), {4}, g.data(), e.data(), kTol, kPoison).ok());
}

TEST(Checker, IntegerOutputsMustBeExact) {
  TensorSpec t;
  t.name = "out";
  t.dtype = DType::kInt32;
  std::vector<int32_t> e = {1, 2, 3}, g = {1, 2, 4};
  Poison p = make_poison(DType::kInt32, 9);
  EXPECT_FALSE(check_output(t, {3}, g.data(), e.data(), {0, 0}, p).ok());
  EXPECT_TRUE(check_output(t, {3}, e.data(), e.data(), {0, 0}, p).ok());
}

TEST(Checker, IntegerPoisonChangesFromCallToCall) {
  EXPECT_NE(make_poison(DType::kInt32, 1).bits, make_poison(DType::kInt32, 2).bits);
  EXPECT_NE(make_poison(DType::kInt8, 1).bits, make_poison(DType::kInt8, 2).bits);
}

TEST(Checker, CompareRunsCountsOnlyDifferencesBeyondTolerance) {
  auto a = ramp(10);
  auto b = a;
  b[1] = std::nextafter(b[1], 100.0f);  // one ulp: a reordered sum
  Difference d = compare_runs(fp32_output(), {10}, a.data(), b.data(), kTol, kPoison);
  EXPECT_EQ(d.bitwise, 1);
  EXPECT_EQ(d.differing, 0);
  b[4] = 1000;
  d = compare_runs(fp32_output(), {10}, a.data(), b.data(), kTol, kPoison);
  EXPECT_EQ(d.differing, 1);
  EXPECT_EQ(d.unwritten, 0);
  ASSERT_TRUE(d.first.has_value());
  EXPECT_EQ(d.first->index, 4);
}

}  // namespace
}  // namespace arena
