// A small, safe arithmetic evaluator for shape, FLOP, byte and constraint expressions.
//
// Grammar (lowest to highest precedence):
//   or:   and ('||' and)*            also the word 'or'
//   and:  cmp ('&&' cmp)*            also the word 'and'
//   cmp:  shift (('=='|'!='|'<'|'<='|'>'|'>=') shift)?
//   shift: sum (('<<'|'>>') sum)*
//   sum:  prod (('+'|'-') prod)*
//   prod: unary (('*'|'/'|'//'|'%') unary)*
//   unary: ('-'|'+'|'!'|'not') unary | power
//   power: atom ('**' unary)?
//   atom: number | name | name '(' args ')' | '(' or ')'
// Functions: min, max, abs, ceil_div, floor, ceil, sqrt, log2.
// Values are doubles; booleans are 1 and 0. Unknown names, bad syntax, division by zero and
// non-integer operands of integer operators are errors (ExprError) that quote the expression.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace arena {

class ExprError : public InputError {
 public:
  using InputError::InputError;
};

using Bindings = std::map<std::string, double, std::less<>>;

class Expr {
 public:
  struct Node;

  Expr() = default;
  // Parses `text`; throws ExprError naming the column of the first problem.
  static Expr parse(std::string_view text);

  double eval(const Bindings& names) const;
  // Evaluates and requires an integer result (shapes, params).
  int64_t eval_int(const Bindings& names) const;

  const std::string& text() const { return text_; }
  bool empty() const { return root_ == nullptr; }
  // Every name the expression refers to (not function names).
  std::vector<std::string> names() const;

 private:
  std::string text_;
  std::shared_ptr<const Node> root_;
};

}  // namespace arena
