// The last fenced code block of a model's reply: what the llm agent takes as the solution file.

#include "agents/code_block.hpp"

#include <gtest/gtest.h>

namespace arena {
namespace {

TEST(CodeBlock, TheLastBlockIsTaken) {
  EXPECT_EQ(last_code_block("First:\n```cpp\nint a;\n```\nThen:\n```cpp\nint b;\n```\nDone."),
            "int b;\n");
}

TEST(CodeBlock, NoneIsNullopt) {
  EXPECT_EQ(last_code_block("I would unroll the loop by four."), std::nullopt);
  EXPECT_EQ(last_code_block("inline ``` backticks ``` are no fence"), std::nullopt);
}

TEST(CodeBlock, TheInfoStringIsNotContent) {
  EXPECT_EQ(last_code_block("```c++ title=solution.cpp\nx\n```"), "x\n");
}

TEST(CodeBlock, ALongerFenceHoldsShorterOnes) {
  EXPECT_EQ(last_code_block("````markdown\n```cpp\ny\n```\n````\n"), "```cpp\ny\n```\n");
}

TEST(CodeBlock, TildeFencesAndCarriageReturnsAreRead) {
  EXPECT_EQ(last_code_block("~~~\r\nz\r\n~~~\r\n"), "z\n");
}

TEST(CodeBlock, ABlockLeftOpenRunsToTheEnd) {
  EXPECT_EQ(last_code_block("```cpp\nint cut_off_at_the_token_li"),
            "int cut_off_at_the_token_li\n");
}

TEST(CodeBlock, AnEmptyBlockIsEmpty) {
  EXPECT_EQ(last_code_block("```\n```"), "");
}

}  // namespace
}  // namespace arena
