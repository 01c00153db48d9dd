#include "judge/guard_bytes.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace arena {
namespace {

TEST(GuardBytes, BuffersEndFlushAgainstTheirTrailingGuard) {
  BufferLayout l = make_layout({12, 4000, 1});
  ASSERT_EQ(l.slots.size(), 3u);
  for (size_t i = 0; i + 1 < l.slots.size(); ++i) {
    EXPECT_EQ(l.slots[i].offset % 64, 0u);
    EXPECT_GE(l.slots[i + 1].offset, l.slots[i].offset + l.slots[i].bytes + 2 * BufferLayout::kGuardBytes);
  }
  EXPECT_GE(l.total_bytes, l.slots.back().offset + 1 + BufferLayout::kGuardBytes);
}

TEST(GuardBytes, IntactGuardsPass) {
  BufferLayout l = make_layout({40, 40});
  std::vector<std::byte> region(l.total_bytes);
  fill_guards(region.data(), l, 42);
  EXPECT_FALSE(check_guards(region.data(), l, 42).has_value());
}

TEST(GuardBytes, AWriteOneElementPastTheEndIsFound) {
  BufferLayout l = make_layout({40, 40});
  std::vector<std::byte> region(l.total_bytes);
  fill_guards(region.data(), l, 42);
  auto* f = reinterpret_cast<float*>(region.data() + l.slots[1].offset);
  f[10] = 1.5f;  // element 10 of a 10-element buffer
  auto v = check_guards(region.data(), l, 42);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->slot, 1u);
  EXPECT_TRUE(v->after);
  EXPECT_LT(v->byte_distance, 4u);
}

TEST(GuardBytes, AWriteBeforeTheStartIsFound) {
  BufferLayout l = make_layout({40});
  std::vector<std::byte> region(l.total_bytes);
  fill_guards(region.data(), l, 7);
  region[l.slots[0].offset - 1] = ~region[l.slots[0].offset - 1];
  auto v = check_guards(region.data(), l, 7);
  ASSERT_TRUE(v.has_value());
  EXPECT_FALSE(v->after);
}

TEST(GuardBytes, DifferentKeysGiveDifferentPatterns) {
  BufferLayout l = make_layout({8});
  std::vector<std::byte> a(l.total_bytes), b(l.total_bytes);
  fill_guards(a.data(), l, 1);
  fill_guards(b.data(), l, 2);
  EXPECT_NE(a, b);
}

}  // namespace
}  // namespace arena
