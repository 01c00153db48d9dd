// Timed runners: how many runner processes each timed side is spread over (ARENA_TIMED_RUNNERS).
#include "judge/timed_runners.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "scoped_env.hpp"
#include "core/error.hpp"

namespace arena {
namespace {

TEST(TimedRunners, TheBackendsDefaultUnlessTheVariableIsSet) {
  testing::ScopedEnv unset("ARENA_TIMED_RUNNERS", nullptr);
  EXPECT_EQ(wanted_timed_runners(1), 1);
  EXPECT_EQ(wanted_timed_runners(2), 2);
  EXPECT_EQ(wanted_timed_runners(0), 1);
  EXPECT_EQ(wanted_timed_runners(99), kMaxTimedRunners);
  testing::ScopedEnv three("ARENA_TIMED_RUNNERS", "3");
  EXPECT_EQ(wanted_timed_runners(1), 3);
  testing::ScopedEnv one("ARENA_TIMED_RUNNERS", "1");
  EXPECT_EQ(wanted_timed_runners(2), 1);
}

TEST(TimedRunners, AMalformedValueNamesTheVariableAndTheRange) {
  for (const char* bad : {"0", "9", "-1", "two", "2x", ""}) {
    testing::ScopedEnv set("ARENA_TIMED_RUNNERS", bad);
    try {
      wanted_timed_runners(2);
      ADD_FAILURE() << "'" << bad << "' was taken";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("ARENA_TIMED_RUNNERS is '" + std::string(bad) + "'"), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("1 to 8"), std::string::npos) << e.what();
    }
  }
}

TEST(TimedRunners, TheOffsetLeftShrinksByTheRootOfTheRunners) {
  EXPECT_DOUBLE_EQ(offset_sd_over_runners(120, 1), 120);
  EXPECT_DOUBLE_EQ(offset_sd_over_runners(120, 4), 60);
  EXPECT_NEAR(offset_sd_over_runners(60, 2), 60 / std::sqrt(2.0), 1e-12);
  EXPECT_DOUBLE_EQ(offset_sd_over_runners(60, 0), 60);
}

}  // namespace
}  // namespace arena
