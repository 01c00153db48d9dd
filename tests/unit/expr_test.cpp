#include "core/expr.hpp"

#include <gtest/gtest.h>

namespace arena {
namespace {

double eval(const std::string& text, const Bindings& b = {}) { return Expr::parse(text).eval(b); }

TEST(Expr, FollowsArithmeticPrecedence) {
  EXPECT_EQ(eval("2 + 3 * 4"), 14);
  EXPECT_EQ(eval("(2 + 3) * 4"), 20);
  EXPECT_EQ(eval("2 ** 3 ** 2"), 512);  // right-associative
  EXPECT_EQ(eval("-2 ** 2"), -4);
  EXPECT_EQ(eval("1 << 20"), 1048576);
  EXPECT_EQ(eval("7 // 2"), 3);
  EXPECT_EQ(eval("-7 // 2"), -4);  // floor, as Python
  EXPECT_EQ(eval("-7 % 3"), 2);
  EXPECT_EQ(eval("7 / 2"), 3.5);
}

TEST(Expr, BindsParamNames) {
  Bindings b{{"M", 128}, {"N", 64}, {"K", 32}};
  EXPECT_EQ(eval("2 * M * N * K", b), 2.0 * 128 * 64 * 32);
  EXPECT_EQ(Expr::parse("ceil_div(M, 48)").eval_int(b), 3);
  EXPECT_EQ(eval("max(M, N) + min(M, N)", b), 192);
}

TEST(Expr, EvaluatesComparisonsAndLogic) {
  Bindings b{{"n", 96}};
  EXPECT_EQ(eval("n % 32 == 0 && n <= 1024", b), 1);
  EXPECT_EQ(eval("n % 64 == 0 or n < 10", b), 0);
  EXPECT_EQ(eval("not (n > 100)", b), 1);
  EXPECT_EQ(eval("n != 96", b), 0);
}

TEST(Expr, ListsTheNamesItUses) {
  EXPECT_EQ(Expr::parse("2 * rows * cols + max(rows, 3)").names(), (std::vector<std::string>{"cols", "rows"}));
}

TEST(Expr, RejectsUnknownNamesListingTheKnownOnes) {
  try {
    eval("M * Q", {{"M", 1}});
    FAIL() << "expected an error";
  } catch (const ExprError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown name 'Q'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("known: M"), std::string::npos) << e.what();
  }
}

TEST(Expr, RejectsBadSyntaxWithTheColumn) {
  for (const char* bad : {"2 +", "(1 + 2", "3 $ 4", "foo(1)", "min(1)", "1 2", ""}) {
    EXPECT_THROW(Expr::parse(bad), ExprError) << bad;
  }
  try {
    Expr::parse("1 + * 2");
  } catch (const ExprError& e) {
    EXPECT_NE(std::string(e.what()).find("column 5"), std::string::npos) << e.what();
  }
}

TEST(Expr, RejectsDivisionByZero) {
  EXPECT_THROW(eval("1 / 0"), ExprError);
  EXPECT_THROW(eval("1 // (n - n)", {{"n", 3}}), ExprError);
  EXPECT_THROW(eval("5 % 0"), ExprError);
  EXPECT_THROW(eval("ceil_div(5, 0)"), ExprError);
}

TEST(Expr, RequiresIntegersWhereIntegersAreMeant) {
  EXPECT_THROW(eval("2.5 // 1"), ExprError);
  EXPECT_THROW(Expr::parse("n / 2").eval_int({{"n", 3}}), ExprError);
  EXPECT_EQ(Expr::parse("n / 2").eval_int({{"n", 4}}), 2);
  EXPECT_THROW(eval("1 << 70"), ExprError);
}

TEST(Expr, WordOperatorsDoNotEatLongerNames) {
  EXPECT_EQ(eval("order + notes", {{"order", 1}, {"notes", 2}}), 3);
}

}  // namespace
}  // namespace arena
