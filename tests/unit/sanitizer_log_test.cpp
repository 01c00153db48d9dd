#include "judge/sanitizer_log.hpp"

#include <gtest/gtest.h>

namespace arena {
namespace {

// What compute-sanitizer writes to --log-file, in the forms its tools use.
const char* kMemcheckError = R"(========= COMPUTE-SANITIZER
========= Invalid __global__ write of size 4 bytes
=========     at add(const float *, const float *, float *, long)+0x1b0 in /tmp/arena/solution.cu:6
=========     by thread (3,0,0) in block (3906,0,0)
=========     Address 0x7f3a5e3d0a0c is out of bounds
=========     and is 13 bytes after the nearest allocation at 0x7f3a5e000000 of size 12000092 bytes
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame:  [0x2f4b2f] in libcuda.so.1
=========         Host Frame: vector_add_f32 [0x1a2b] in solution.so
=========
========= Invalid __global__ write of size 4 bytes
=========     at add(const float *, const float *, float *, long)+0x1b0 in /tmp/arena/solution.cu:6
=========     by thread (4,0,0) in block (3906,0,0)
=========     Address 0x7f3a5e3d0a10 is out of bounds
=========
========= Target application returned an error
========= ERROR SUMMARY: 3 errors
)";

const char* kRacecheckHazard = R"(========= COMPUTE-SANITIZER
========= Error: Race reported between Write access at add(const float *, const float *, float *, long)+0x2c0 in /tmp/arena/solution.cu:17
=========     and Read access at add(const float *, const float *, float *, long)+0x2e0 in /tmp/arena/solution.cu:18 [1000192 hazards]
=========
========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)
)";

const char* kRacecheckWarningsOnly = R"(========= COMPUTE-SANITIZER
========= Warning: Race reported between Write access at reduce(float *)+0x80 in reduce.cu:9
=========     and Read access at reduce(float *)+0x90 in reduce.cu:10 [32 hazards]
=========
========= RACECHECK SUMMARY: 2 hazards displayed (0 errors, 2 warnings)
)";

TEST(SanitizerLog, MemcheckErrorsAreCounted) {
  SanitizerLog log = parse_sanitizer_log(kMemcheckError);
  EXPECT_TRUE(log.summary_found);
  EXPECT_EQ(log.errors, 3);
  EXPECT_TRUE(log.application_error);
}

TEST(SanitizerLog, OneErrorIsSingular) {
  SanitizerLog log =
      parse_sanitizer_log("========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 1 error\n");
  EXPECT_TRUE(log.summary_found);
  EXPECT_EQ(log.errors, 1);
}

TEST(SanitizerLog, RacecheckHazardIsAnError) {
  SanitizerLog log = parse_sanitizer_log(kRacecheckHazard);
  EXPECT_TRUE(log.summary_found);
  EXPECT_EQ(log.errors, 1);
  EXPECT_EQ(log.warnings, 0);
}

TEST(SanitizerLog, RacecheckWarningsAreNotErrors) {
  SanitizerLog log = parse_sanitizer_log(kRacecheckWarningsOnly);
  EXPECT_TRUE(log.summary_found);
  EXPECT_EQ(log.errors, 0);
  EXPECT_EQ(log.warnings, 2);
}

TEST(SanitizerLog, CleanRunsOfEveryTool) {
  for (const char* text : {"========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n",
                           "========= COMPUTE-SANITIZER\n========= RACECHECK SUMMARY: 0 hazards "
                           "displayed (0 errors, 0 warnings)\n"}) {
    SanitizerLog log = parse_sanitizer_log(text);
    EXPECT_TRUE(log.summary_found) << text;
    EXPECT_EQ(log.errors, 0) << text;
    EXPECT_FALSE(log.application_error) << text;
  }
}

TEST(SanitizerLog, AReportWithoutSummaryIsNotClean) {
  // A tool that was killed, or never attached, leaves no summary: not a clean run.
  SanitizerLog log = parse_sanitizer_log(
      "========= COMPUTE-SANITIZER\n========= Error: No attachable process found. "
      "compute-sanitizer timed-out.\n");
  EXPECT_FALSE(log.summary_found);
  EXPECT_FALSE(parse_sanitizer_log("").summary_found);
}

TEST(SanitizerLog, TheLargestSummaryCounts) {
  // The solution's own output could say "ERROR SUMMARY: 0 errors" too; it never lowers the count.
  SanitizerLog log =
      parse_sanitizer_log("ERROR SUMMARY: 0 errors\n========= ERROR SUMMARY: 2 errors\n");
  EXPECT_EQ(log.errors, 2);
}

TEST(SanitizerLog, LongReportsKeepHeadAndSummary) {
  std::string text = "========= COMPUTE-SANITIZER\n";
  for (int i = 0; i < 2000; ++i)
    text += "========= Invalid __global__ read of size 4 bytes at line " + std::to_string(i) + "\n";
  text += "========= ERROR SUMMARY: 2000 errors\n";
  std::string cut = cut_report(text, 4000);
  EXPECT_LE(cut.size(), 4200u);
  EXPECT_EQ(cut.rfind("========= COMPUTE-SANITIZER", 0), 0u);
  EXPECT_NE(cut.find("ERROR SUMMARY: 2000 errors"), std::string::npos);
  EXPECT_NE(cut.find("bytes of the report cut"), std::string::npos);
  EXPECT_EQ(cut_report("short\n", 4000), "short\n");
}

}  // namespace
}  // namespace arena
