#include "core/cpu_list.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace arena {
namespace {

TEST(CpuList, ReadsNumbersAndRangesAsSysfsWritesThem) {
  EXPECT_EQ(parse_cpu_list("0-3,8", "x"), (std::vector<int>{0, 1, 2, 3, 8}));
  EXPECT_EQ(parse_cpu_list("5\n", "x"), (std::vector<int>{5}));  // a sysfs file's line
  EXPECT_EQ(parse_cpu_list("8,0-1,1", "x"), (std::vector<int>{0, 1, 8}));  // sorted, each once
  EXPECT_EQ(parse_cpu_list("0-63", "x").size(), 64u);
}

TEST(CpuList, WhatIsNotAListIsAnErrorNamingItsSource) {
  for (const char* bad : {"", "local", "1-", "-1", "3-1", "0,,1", "1 2", "4096", "0x1"}) {
    try {
      parse_cpu_list(bad, "ARENA_RUNNER_CPUS");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("ARENA_RUNNER_CPUS"), std::string::npos) << what;
      EXPECT_NE(what.find("such as 0-7"), std::string::npos) << what;
    }
  }
}

TEST(CpuList, CpusThisProcessMayNotUseAreAnErrorNamingThem) {
  const std::vector<int> mine = allowed_cpus();
  ASSERT_FALSE(mine.empty());
  EXPECT_NO_THROW(check_cpus_allowed(mine, "ARENA_RUNNER_CPUS"));
  EXPECT_NO_THROW(check_cpus_allowed({mine.front()}, "ARENA_RUNNER_CPUS"));
  try {
    check_cpus_allowed({mine.front(), 1023}, "ARENA_RUNNER_CPUS");
    ADD_FAILURE() << "CPU 1023 accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("ARENA_RUNNER_CPUS: CPUs 1023 are not"), std::string::npos) << what;
    EXPECT_NE(what.find(format_cpu_list(mine)), std::string::npos) << what;
  }
}

TEST(CpuList, WritesTheShortestList) {
  EXPECT_EQ(format_cpu_list({0, 1, 2, 3, 8}), "0-3,8");
  EXPECT_EQ(format_cpu_list({4}), "4");
  EXPECT_EQ(format_cpu_list({1, 3, 4}), "1,3-4");
  EXPECT_EQ(format_cpu_list({}), "");
  EXPECT_EQ(format_cpu_list(parse_cpu_list("0-7,16-23", "x")), "0-7,16-23");
}

}  // namespace
}  // namespace arena
