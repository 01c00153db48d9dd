#include "judge/placements.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "scoped_env.hpp"

namespace arena {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

TEST(Placements, EachStartsOnAPageOfItsOwn) {
  EXPECT_EQ(placement_stride(1), 2 * kMiB);
  EXPECT_EQ(placement_stride(2 * kMiB), 2 * kMiB);
  EXPECT_EQ(placement_stride(2 * kMiB + 1), 4 * kMiB);
  EXPECT_EQ(placement_stride(48 * kMiB + 16384), 50 * kMiB);  // vector_add at n = 4194304
}

TEST(Placements, AsManyAsWantedWhereTheyFitTheBudget) {
  EXPECT_EQ(placements_for(48 * kMiB + 16384, 8), 8);   // 400 MiB
  EXPECT_EQ(placements_for(200 * kMiB, 8), 5);          // 5 x 200 MiB of the 1 GiB
  EXPECT_EQ(placements_for(600 * kMiB, 8), 1);          // more than half the budget: one
  EXPECT_EQ(placements_for(uint64_t{20} << 30, 8), 1);  // larger than the budget: still one
  EXPECT_EQ(placements_for(4096, 1), 1);
  EXPECT_EQ(placements_for(4096, 0), 1);
  EXPECT_EQ(placements_for(4096, 1000), kMaxPlacements);
}

TEST(Placements, TheVariableSetsHowMany) {
  {
    testing::ScopedEnv unset("ARENA_PLACEMENTS", nullptr);
    EXPECT_EQ(wanted_placements(), kDefaultPlacements);
  }
  {
    testing::ScopedEnv one("ARENA_PLACEMENTS", "1");
    EXPECT_EQ(wanted_placements(), 1);
  }
  testing::ScopedEnv four("ARENA_PLACEMENTS", "4");
  EXPECT_EQ(wanted_placements(), 4);
}

TEST(Placements, AMalformedVariableIsNamed) {
  for (const char* bad : {"", "0", "-2", "8x", "65", "eight", "1e3"}) {
    testing::ScopedEnv env("ARENA_PLACEMENTS", bad);
    try {
      wanted_placements();
      ADD_FAILURE() << "'" << bad << "' was taken";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("ARENA_PLACEMENTS is '" + std::string(bad) + "'"),
                std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("1 to 64"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace arena
