#include "core/task.hpp"

#include <algorithm>
#include <cmath>

namespace arena {

std::string Shape::label() const {
  std::string s;
  for (const auto& [k, v] : params) s += (s.empty() ? "" : " ") + k + "=" + std::to_string(v);
  return s;
}

Bindings Task::bind(const Shape& shape) const {
  Bindings b;
  for (const auto& [k, v] : shape.params) b[k] = static_cast<double>(v);
  return b;
}

std::vector<int64_t> Task::dims(const TensorSpec& t, const Shape& shape) const {
  Bindings b = bind(shape);
  std::vector<int64_t> d;
  d.reserve(t.shape.size());
  for (const auto& e : t.shape) {
    int64_t v = e.eval_int(b);
    if (v < 0)
      throw InputError(file.string() + ": tensor '" + t.name + "' dimension '" + e.text() +
                       "' is negative (" + std::to_string(v) + ") at " + shape.label());
    d.push_back(v);
  }
  return d;
}

int64_t Task::elements(const TensorSpec& t, const Shape& shape) const {
  int64_t n = 1;
  for (int64_t d : dims(t, shape)) n *= d;
  return n;
}

int64_t Task::bytes_of(const TensorSpec& t, const Shape& shape) const {
  return elements(t, shape) * static_cast<int64_t>(dtype_size(t.dtype));
}

int64_t Task::total_bytes(const Shape& shape) const {
  int64_t total = 0;
  for (const auto& t : tensors) total += bytes_of(t, shape);
  return total;
}

void Task::check_expressions(const Shape& s) const {
  const Bindings b = bind(s);
  for (const auto& ts : tensors) {
    for (int64_t d : dims(ts, s))
      if (d < 0) throw ExprError("tensor '" + ts.name + "' has a negative dimension here");
    const Distribution& d = ts.distribution;
    if (d.low_at(b) > d.high_at(b)) throw ExprError("tensor '" + ts.name + "': its distribution's low exceeds its high here");
    if (!d.total_expr.empty() && d.total_expr.eval(b) < 0)
      throw ExprError("tensor '" + ts.name + "': its offsets' total is negative here");
  }
  flops.eval(b);
  bytes.eval(b);
  for (const auto& sc : scalars) sc.value.eval(b);
}

std::vector<std::string> Task::shape_problems(const Shape& shape) const {
  std::vector<std::string> problems;
  for (const auto& p : params) {
    auto it = shape.params.find(p.name);
    if (it == shape.params.end()) {
      problems.push_back("param '" + p.name + "' has no value");
      continue;
    }
    int64_t v = it->second;
    if (v < p.min || v > p.max)
      problems.push_back(p.name + "=" + std::to_string(v) + " is outside [" +
                         std::to_string(p.min) + ", " + std::to_string(p.max) + "]");
    if (p.multiple_of > 1 && v % p.multiple_of != 0)
      problems.push_back(p.name + "=" + std::to_string(v) + " is not a multiple of " +
                         std::to_string(p.multiple_of));
  }
  for (const auto& [k, v] : shape.params) {
    bool known = false;
    for (const auto& p : params) known = known || p.name == k;
    if (!known) problems.push_back("'" + k + "' is not a param of this task");
  }
  if (!problems.empty()) return problems;
  Bindings b = bind(shape);
  for (const auto& c : constraints)
    if (c.eval(b) == 0) problems.push_back("constraint '" + c.text() + "' does not hold");
  int64_t total = total_bytes(shape);
  if (total > limits.memory_bytes)
    problems.push_back("tensors need " + std::to_string(total) + " bytes, over the memory cap of " +
                       std::to_string(limits.memory_bytes));
  return problems;
}

Tolerance Task::tolerance_for(const TensorSpec& t, const Shape& shape) const {
  Tolerance tol;
  auto it = tolerance.find(t.dtype);
  if (it != tolerance.end()) tol = it->second;
  if (tolerance_reduction) {
    double len = tolerance_reduction->eval(bind(shape));
    double f = std::sqrt(std::max(1.0, len));
    tol.atol *= f;
    tol.rtol *= f;
  }
  return tol;
}

std::vector<std::string> Task::all_libraries() const {
  std::vector<std::string> all = libraries;
  for (const auto& l : expert_libraries)
    if (std::find(all.begin(), all.end(), l) == all.end()) all.push_back(l);
  return all;
}

}  // namespace arena
