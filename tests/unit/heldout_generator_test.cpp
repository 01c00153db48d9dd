#include "judge/heldout_generator.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/task_catalog.hpp"
#include "core/task_loader.hpp"
#include "task_files.hpp"

namespace arena {
namespace {

using testing::replace;
using testing::TempTask;
using testing::valid_task_yaml;

// A GEMM-like task: three sizes, a constraint, a memory cap, declared production shapes.
std::string gemm_yaml() {
  return R"yaml(name: mm
backend: cpu
category: cpu2cpu
params:
  M: {min: 1, max: 65536}
  N: {min: 1, max: 65536}
  K: {min: 16, max: 65536, multiple_of: 16}
constraints:
  - "M * N <= 1 << 28"
tensors:
  - {name: A, dtype: fp32, role: input, shape: [M, K]}
  - {name: B, dtype: fp32, role: input, shape: [K, N]}
  - {name: C, dtype: fp32, role: output, shape: [M, N]}
flops: "2 * M * N * K"
bytes: "4 * (M * K + K * N + M * N)"
limits: {memory_bytes: "1 << 30"}
visible:
  - {M: 256, N: 256, K: 256}
  - {M: 1000, N: 333, K: 512}
heldout:
  categories: [edge, scale_up, scale_down, alignment, asymmetric, production]
  shapes:
    - {M: 4096, N: 4096, K: 1024}
  count: 10
reference: reference.cpp
starter: starter.cpp
)yaml";
}

TEST(HeldoutGenerator, SameSeedSameShapesOtherSeedOtherShapes) {
  TempTask t(gemm_yaml());
  Task task = load_task(t.dir());
  auto a = generate_heldout(task, 1234), b = generate_heldout(task, 1234), c = generate_heldout(task, 99);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].shape, b[i].shape);
    EXPECT_EQ(a[i].category, b[i].category);
  }
  bool differ = a.size() != c.size();
  for (size_t i = 0; !differ && i < a.size(); ++i) differ = !(a[i].shape == c[i].shape);
  EXPECT_TRUE(differ) << "two seeds drew the same held-out shapes";
}

TEST(HeldoutGenerator, ShapesAreLegalNewDistinctAndCoverTheCategories) {
  TempTask t(gemm_yaml());
  Task task = load_task(t.dir());
  auto shapes = generate_heldout(task, 7);
  ASSERT_EQ(shapes.size(), 11u) << "one production shape and count = 10 drawn";
  EXPECT_EQ(shapes[0].category, "production");
  std::vector<std::string> seen;
  for (size_t i = 0; i < shapes.size(); ++i) {
    const Shape& s = shapes[i].shape;
    EXPECT_TRUE(task.shape_problems(s).empty()) << s.label();
    EXPECT_EQ(std::count(task.visible.begin(), task.visible.end(), s), 0) << s.label() << " is visible";
    for (size_t j = 0; j < i; ++j) EXPECT_FALSE(shapes[j].shape == s) << s.label() << " twice";
    seen.push_back(shapes[i].category);
  }
  for (const char* c : {"edge", "largest", "scale_up", "scale_down", "alignment", "asymmetric"})
    EXPECT_NE(std::find(seen.begin(), seen.end(), c), seen.end()) << c;
}

TEST(HeldoutGenerator, TheLargestLegalShapeFillsTheMemoryCap) {
  TempTask t(gemm_yaml());
  Task task = load_task(t.dir());
  auto s = largest_legal_shape(task);
  ASSERT_TRUE(s);
  EXPECT_TRUE(is_legal_shape(task, *s));
  // Within a factor (1 + 1/64)^2 of the cap, and over it one step further.
  EXPECT_GT(task.total_bytes(*s), (int64_t{1} << 30) * 9 / 10) << s->label();
  EXPECT_EQ(s->params.at("K") % 16, 0);
}

TEST(HeldoutGenerator, DomainsClampTheLargestShape) {
  // n is capped at 1e8 by its domain, far below the 2 GiB memory cap of 12 bytes per n.
  TempTask t(valid_task_yaml());
  Task task = load_task(t.dir());
  auto s = largest_legal_shape(task);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->params.at("n"), 100000000);
}

TEST(HeldoutGenerator, EveryTaskInTheRepoGetsLegalHeldoutShapes) {
  auto root = tasks_root();
  auto ids = list_task_ids(root);
  ASSERT_FALSE(ids.empty());
  for (const auto& id : ids) {
    Task task = load_task(resolve_task(id, root));
    auto shapes = generate_heldout(task, 2026);
    EXPECT_GE(static_cast<int64_t>(shapes.size()), task.heldout.count) << id;
    for (const auto& h : shapes) EXPECT_TRUE(is_legal_shape(task, h.shape)) << id << ": " << h.shape.label();
    auto largest = largest_legal_shape(task);
    ASSERT_TRUE(largest) << id;
    for (const auto& v : task.visible) EXPECT_GE(task.total_bytes(*largest), task.total_bytes(v)) << id;
  }
}

}  // namespace
}  // namespace arena
