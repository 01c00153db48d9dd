// The human verdict (report/verdict_table.hpp): where the seconds went, in one line.
#include "report/verdict_table.hpp"

#include <gtest/gtest.h>

#include <string>

namespace arena {
namespace {

Verdict compiled_verdict() {
  Verdict v;
  v.task = "cuda/vector_add_f32";
  v.solution_path = "starter.cu";
  v.solution_sha256 = std::string(64, 'a');
  v.compile.ok = true;
  return v;
}

// Largest part first; runner_start shown as part of prepare, not beside it; parts under 5 ms
// left out; setup said to lie before the judge's total.
TEST(VerdictTable, SaysWhereTheSecondsWentLargestFirst) {
  Verdict v = compiled_verdict();
  v.seconds = {{"total", 1.087},  {"prepare", 0.785}, {"runner_start", 0.739}, {"timing", 0.261},
               {"solution_calls", 0.016}, {"checks", 0.004}, {"setup", 0.025}};
  const std::string out = render_verdict(v);
  EXPECT_NE(out.find("seconds: 1.09 in the judge: prepare 0.79 (waiting for runners 0.74), timing 0.26, "
                     "solution_calls 0.02; setup 0.03 before it\n"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("checks 0.00"), std::string::npos) << out;
  EXPECT_LT(out.find("seconds: "), out.find("result: ")) << out;
}

// A verdict without seconds (made by hand, or by an older judge) gets no such line.
TEST(VerdictTable, SaysNothingOfSecondsItWasNotGiven) {
  Verdict v = compiled_verdict();
  EXPECT_EQ(render_verdict(v).find("seconds:"), std::string::npos);
  v.seconds = {{"total", 0.5}};
  EXPECT_NE(render_verdict(v).find("seconds: 0.50 in the judge\n"), std::string::npos) << render_verdict(v);
}

}  // namespace
}  // namespace arena
