#include "judge/ncu_report.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.hpp"

namespace arena {
namespace {

const char* kHeader =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel "
    "Name\",\"Context\",\"Stream\",\"Block "
    "Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric "
    "Unit\",\"Metric Value\"\n";

std::string row(int id, const std::string& kernel, const std::string& metric,
                const std::string& value) {
  return "\"" + std::to_string(id) + "\",\"77\",\"arena-runner-cuda\",\"h\",\"" + kernel +
         "\",\"1\",\"13\",\"(256, 1, 1)\",\"(40, 1, 1)\",\"0\",\"9.0\",\"Command line profiler "
         "metrics\",\"" +
         metric + "\",\"x\",\"" + value + "\"\n";
}

TEST(NcuReport, RowsOfOneLaunchMakeOneKernel) {
  std::string csv = "==PROF== Connected to process 77\n" + std::string(kHeader) +
                    row(0, "add(const float *, float *)", "gpu__time_duration.sum", "4,096.5") +
                    row(0, "add(const float *, float *)", "launch__registers_per_thread", "16") +
                    row(1, "add(const float *, float *)", "gpu__time_duration.sum", "4,000") +
                    row(2, "void k<(int)3>(float *, int)", "gpu__time_duration.sum", "10") +
                    "==PROF== Disconnected from process 77\n";
  auto k = parse_ncu_csv(csv);
  ASSERT_EQ(k.size(), 3u);
  EXPECT_EQ(k[0].id, 0);
  EXPECT_EQ(k[0].name, "add(const float *, float *)");  // the ',' inside quotes stays
  EXPECT_EQ(k[0].block, "(256, 1, 1)");
  EXPECT_EQ(k[0].grid, "(40, 1, 1)");
  EXPECT_DOUBLE_EQ(k[0].get("gpu__time_duration.sum"), 4096.5);  // thousands separator
  EXPECT_DOUBLE_EQ(k[0].get("launch__registers_per_thread"), 16);
  EXPECT_DOUBLE_EQ(k[1].get("gpu__time_duration.sum"), 4000);  // a second launch of the same kernel
  EXPECT_EQ(k[2].name, "void k<(int)3>(float *, int)");
}

TEST(NcuReport, ValuesThatAreNoNumbersAreLeftOut) {
  auto k = parse_ncu_csv(std::string(kHeader) + row(0, "k", "lts__t_sector_hit_rate.pct", "n/a"));
  ASSERT_EQ(k.size(), 1u);
  EXPECT_LT(k[0].get("lts__t_sector_hit_rate.pct"), 0);
  EXPECT_LT(k[0].get("gpu__time_duration.sum"), 0);  // never reported
}

TEST(NcuReport, QuotesInsideAFieldAreDoubled) {
  auto k =
      parse_ncu_csv(std::string(kHeader) + row(0, "say \"\"hi\"\"", "gpu__time_duration.sum", "1"));
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(k[0].name, "say \"hi\"");
}

TEST(NcuReport, NoKernelNoRow) {
  EXPECT_TRUE(parse_ncu_csv("==PROF== No kernels were profiled.\n").empty());
}

TEST(NcuReport, AHeaderWithoutTheColumnsIsRefusedNamingTheLine) {
  try {
    parse_ncu_csv("==PROF== x\n\"Kernel\",\"Value\"\n");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Metric Name"), std::string::npos) << e.what();
  }
}

TEST(NcuReport, AShortRowIsRefusedNamingTheLine) {
  try {
    parse_ncu_csv(std::string(kHeader) + "\"0\",\"77\"\n");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("line 2: 2 cells where the header has 15"),
              std::string::npos)
        << e.what();
  }
}

TEST(NcuReport, ArgumentsAskForEveryMetricAsCsvWithTheClocksLeftAlone) {
  auto args = ncu_arguments("/tmp/r.csv", 16);
  auto after = [&](const std::string& flag) {
    auto it = std::find(args.begin(), args.end(), flag);
    return it == args.end() || it + 1 == args.end() ? std::string("(missing)") : *(it + 1);
  };
  EXPECT_NE(std::find(args.begin(), args.end(), "--csv"), args.end());
  EXPECT_EQ(after("--clock-control"), "none");
  EXPECT_EQ(after("--print-units"), "base");
  EXPECT_EQ(after("--log-file"), "/tmp/r.csv");
  EXPECT_EQ(after("--launch-count"), "16");
  std::string metrics = after("--metrics");
  for (const auto& m : ncu_metrics()) EXPECT_NE(metrics.find(m.name), std::string::npos) << m.name;
}

}  // namespace
}  // namespace arena
