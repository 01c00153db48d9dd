#include "core/expr.hpp"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <functional>
#include <set>

namespace arena {

struct Expr::Node {
  enum class Kind { kNumber, kName, kUnary, kBinary, kCall };
  Kind kind = Kind::kNumber;
  double number = 0;
  std::string name;  // variable, operator or function name
  std::vector<std::shared_ptr<const Node>> args;
};

namespace {

using NodePtr = std::shared_ptr<const Expr::Node>;
using Kind = Expr::Node::Kind;

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  NodePtr parse_all() {
    NodePtr n = parse_or();
    skip_space();
    if (pos_ != text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    return n;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw ExprError("bad expression '" + std::string(text_) + "': " + what + " at column " +
                    std::to_string(pos_ + 1));
  }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  bool eat(std::string_view tok) {
    skip_space();
    if (text_.substr(pos_, tok.size()) != tok) return false;
    // A word operator must not be the prefix of a longer name ("order" is not "or").
    if (std::isalpha(static_cast<unsigned char>(tok[0])) && pos_ + tok.size() < text_.size()) {
      char next = text_[pos_ + tok.size()];
      if (std::isalnum(static_cast<unsigned char>(next)) || next == '_') return false;
    }
    pos_ += tok.size();
    return true;
  }

  static NodePtr make_binary(std::string op, NodePtr a, NodePtr b) {
    auto n = std::make_shared<Expr::Node>();
    n->kind = Kind::kBinary;
    n->name = std::move(op);
    n->args = {std::move(a), std::move(b)};
    return n;
  }

  NodePtr parse_or() {
    NodePtr left = parse_and();
    while (eat("||") || eat("or")) left = make_binary("||", left, parse_and());
    return left;
  }

  NodePtr parse_and() {
    NodePtr left = parse_cmp();
    while (eat("&&") || eat("and")) left = make_binary("&&", left, parse_cmp());
    return left;
  }

  NodePtr parse_cmp() {
    NodePtr left = parse_shift();
    for (const char* op : {"==", "!=", "<=", ">=", "<", ">"}) {
      skip_space();
      // '<' must not eat the first half of '<<'.
      if ((std::string_view(op) == "<" && text_.substr(pos_, 2) == "<<") ||
          (std::string_view(op) == ">" && text_.substr(pos_, 2) == ">>"))
        continue;
      if (eat(op)) return make_binary(op, left, parse_shift());
    }
    return left;
  }

  NodePtr parse_shift() {
    NodePtr left = parse_sum();
    for (;;) {
      if (eat("<<")) {
        left = make_binary("<<", left, parse_sum());
      } else if (eat(">>")) {
        left = make_binary(">>", left, parse_sum());
      } else {
        return left;
      }
    }
  }

  NodePtr parse_sum() {
    NodePtr left = parse_prod();
    for (;;) {
      if (eat("+")) {
        left = make_binary("+", left, parse_prod());
      } else if (eat("-")) {
        left = make_binary("-", left, parse_prod());
      } else {
        return left;
      }
    }
  }

  NodePtr parse_prod() {
    NodePtr left = parse_unary();
    for (;;) {
      skip_space();
      if (text_.substr(pos_, 2) == "**") return left;  // handled in parse_power
      if (eat("*")) {
        left = make_binary("*", left, parse_unary());
      } else if (eat("//")) {
        left = make_binary("//", left, parse_unary());
      } else if (eat("/")) {
        left = make_binary("/", left, parse_unary());
      } else if (eat("%")) {
        left = make_binary("%", left, parse_unary());
      } else {
        return left;
      }
    }
  }

  NodePtr parse_unary() {
    for (const char* op : {"-", "+", "!", "not"}) {
      skip_space();
      if (std::string_view(op) == "!" && text_.substr(pos_, 2) == "!=") continue;
      if (eat(op)) {
        auto n = std::make_shared<Expr::Node>();
        n->kind = Kind::kUnary;
        n->name = std::string(op) == "not" ? "!" : op;
        n->args = {parse_unary()};
        return n;
      }
    }
    return parse_power();
  }

  NodePtr parse_power() {
    NodePtr base = parse_atom();
    if (eat("**")) return make_binary("**", base, parse_unary());
    return base;
  }

  NodePtr parse_atom() {
    skip_space();
    if (pos_ >= text_.size()) fail("expected a value");
    char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      NodePtr inner = parse_or();
      if (!eat(")")) fail("expected ')'");
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return parse_number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = pos_;
      while (pos_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
        ++pos_;
      auto n = std::make_shared<Expr::Node>();
      n->name = std::string(text_.substr(start, pos_ - start));
      if (eat("(")) {
        n->kind = Kind::kCall;
        if (!eat(")")) {
          do {
            n->args.push_back(parse_or());
          } while (eat(","));
          if (!eat(")")) fail("expected ')' after the arguments of " + n->name);
        }
        check_call(*n);
      } else {
        n->kind = Kind::kName;
      }
      return n;
    }
    fail("expected a value");
  }

  void check_call(const Expr::Node& n) const {
    static const std::map<std::string, size_t, std::less<>> kArity = {
        {"min", 2}, {"max", 2},   {"abs", 1},  {"ceil_div", 2},
        {"floor", 1}, {"ceil", 1}, {"sqrt", 1}, {"log2", 1}};
    auto it = kArity.find(n.name);
    if (it == kArity.end())
      fail("unknown function '" + n.name + "' (known: min, max, abs, ceil_div, floor, ceil, sqrt, log2)");
    if (n.args.size() != it->second)
      fail(n.name + " takes " + std::to_string(it->second) + " argument(s), got " +
           std::to_string(n.args.size()));
  }

  NodePtr parse_number() {
    char* end = nullptr;
    std::string copy(text_.substr(pos_));
    double v = std::strtod(copy.c_str(), &end);
    auto used = static_cast<size_t>(end - copy.c_str());
    if (used == 0) fail("bad number");
    pos_ += used;
    auto n = std::make_shared<Expr::Node>();
    n->kind = Kind::kNumber;
    n->number = v;
    return n;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

class Evaluator {
 public:
  Evaluator(const std::string& text, const Bindings& names) : text_(text), names_(names) {}

  double eval(const Expr::Node& n) const {
    switch (n.kind) {
      case Kind::kNumber:
        return n.number;
      case Kind::kName: {
        auto it = names_.find(n.name);
        if (it == names_.end()) fail("unknown name '" + n.name + "'" + known_names());
        return it->second;
      }
      case Kind::kUnary: {
        double v = eval(*n.args[0]);
        if (n.name == "-") return -v;
        if (n.name == "+") return v;
        return v == 0 ? 1 : 0;
      }
      case Kind::kBinary:
        return binary(n.name, *n.args[0], *n.args[1]);
      case Kind::kCall:
        return call(n);
    }
    return 0;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw ExprError("cannot evaluate '" + text_ + "': " + what);
  }

  std::string known_names() const {
    if (names_.empty()) return " (no names are defined here)";
    std::string s = " (known: ";
    bool first = true;
    for (const auto& [k, v] : names_) {
      s += (first ? "" : ", ") + k;
      first = false;
    }
    return s + ")";
  }

  int64_t as_int(double v, const std::string& op) const {
    if (v != std::floor(v) || std::fabs(v) > 9.0e15)
      fail("operator " + op + " needs integers, got " + std::to_string(v));
    return static_cast<int64_t>(v);
  }

  double binary(const std::string& op, const Expr::Node& a, const Expr::Node& b) const {
    if (op == "&&") return (eval(a) != 0 && eval(b) != 0) ? 1 : 0;
    if (op == "||") return (eval(a) != 0 || eval(b) != 0) ? 1 : 0;
    double x = eval(a);
    double y = eval(b);
    if (op == "+") return x + y;
    if (op == "-") return x - y;
    if (op == "*") return x * y;
    if (op == "/") {
      if (y == 0) fail("division by zero");
      return x / y;
    }
    if (op == "//" || op == "%") {
      int64_t xi = as_int(x, op);
      int64_t yi = as_int(y, op);
      if (yi == 0) fail(op == "%" ? "modulo by zero" : "division by zero");
      int64_t q = xi / yi;
      int64_t r = xi % yi;
      if (r != 0 && ((r < 0) != (yi < 0))) {  // floor semantics, as Python
        q -= 1;
        r += yi;
      }
      return static_cast<double>(op == "%" ? r : q);
    }
    if (op == "**") {
      double r = std::pow(x, y);
      if (!std::isfinite(r)) fail("power overflows");
      return r;
    }
    if (op == "<<" || op == ">>") {
      int64_t xi = as_int(x, op);
      int64_t yi = as_int(y, op);
      if (yi < 0 || yi > 62) fail("shift by " + std::to_string(yi) + " is out of range 0..62");
      return static_cast<double>(op == "<<" ? (xi * (int64_t{1} << yi)) : (xi >> yi));
    }
    if (op == "==") return x == y ? 1 : 0;
    if (op == "!=") return x != y ? 1 : 0;
    if (op == "<") return x < y ? 1 : 0;
    if (op == "<=") return x <= y ? 1 : 0;
    if (op == ">") return x > y ? 1 : 0;
    if (op == ">=") return x >= y ? 1 : 0;
    fail("unknown operator " + op);
  }

  double call(const Expr::Node& n) const {
    std::vector<double> v;
    v.reserve(n.args.size());
    for (const auto& a : n.args) v.push_back(eval(*a));
    if (n.name == "min") return std::min(v[0], v[1]);
    if (n.name == "max") return std::max(v[0], v[1]);
    if (n.name == "abs") return std::fabs(v[0]);
    if (n.name == "floor") return std::floor(v[0]);
    if (n.name == "ceil") return std::ceil(v[0]);
    if (n.name == "ceil_div") {
      if (v[1] == 0) fail("division by zero in ceil_div");
      return std::ceil(v[0] / v[1]);
    }
    if (n.name == "sqrt") {
      if (v[0] < 0) fail("sqrt of a negative number");
      return std::sqrt(v[0]);
    }
    if (n.name == "log2") {
      if (v[0] <= 0) fail("log2 of a number that is not positive");
      return std::log2(v[0]);
    }
    fail("unknown function " + n.name);
  }

  const std::string& text_;
  const Bindings& names_;
};

void collect_names(const Expr::Node& n, std::set<std::string>& out) {
  if (n.kind == Kind::kName) out.insert(n.name);
  for (const auto& a : n.args) collect_names(*a, out);
}

}  // namespace

Expr Expr::parse(std::string_view text) {
  Expr e;
  e.text_ = std::string(text);
  Parser p(text);
  e.root_ = p.parse_all();
  return e;
}

double Expr::eval(const Bindings& names) const {
  if (!root_) throw ExprError("cannot evaluate an empty expression");
  return Evaluator(text_, names).eval(*root_);
}

int64_t Expr::eval_int(const Bindings& names) const {
  double v = eval(names);
  if (v != std::floor(v) || std::fabs(v) > 9.0e15)
    throw ExprError("'" + text_ + "' must give an integer, got " + std::to_string(v));
  return static_cast<int64_t>(v);
}

std::vector<std::string> Expr::names() const {
  std::set<std::string> s;
  if (root_) collect_names(*root_, s);
  return {s.begin(), s.end()};
}

}  // namespace arena
