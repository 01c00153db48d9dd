// Compares one output tensor with the reference: per-element tolerance, NaN/Inf rules, where the
// first mismatch is, and what the wrong elements look like (unwritten, zeros, a constant).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/task.hpp"
#include "judge/poison.hpp"

namespace arena {

struct Mismatch {
  int64_t index = 0;            // flat, row-major
  std::vector<int64_t> coords;  // per dimension
  double got = 0;
  double expected = 0;
  double bound = 0;             // atol + rtol * |expected|
  bool unwritten = false;       // still held the poison
};

struct OutputCheck {
  std::string tensor;
  int64_t elements = 0;
  int64_t mismatches = 0;
  int64_t unwritten = 0;   // mismatching elements that were never written
  int64_t non_finite = 0;  // NaN/Inf the solution produced where the reference is finite
  double max_abs_error = 0;
  double max_rel_error = 0;
  std::optional<Mismatch> first;
  // Where the mismatches are: "tail" (all in the last partial tile or last index of some
  // dimension), "everywhere" (more than half the elements), "interior" (otherwise).
  std::string where;
  bool only_tail = false;  // every mismatch lies in a tail, even when they are most of the elements
  // What the output looks like when every element is wrong the same way: "unwritten", "zeros",
  // "constant"; empty otherwise.
  std::string pattern;
  bool ok() const { return mismatches == 0; }
};

// Element coordinates as "[3, 17]", for messages.
std::string coords_text(const std::vector<int64_t>& coords);

OutputCheck check_output(const TensorSpec& spec, const std::vector<int64_t>& dims, const void* got,
                         const void* expected, const Tolerance& tol, const Poison& poison);

// Elements where two outputs of the same call differ by more than the tolerance (bitwise
// differences within tolerance, as from reordered float sums, are not counted).
struct Difference {
  int64_t differing = 0;  // beyond tolerance
  int64_t bitwise = 0;    // any bit
  int64_t unwritten = 0;  // of the differing, those `b` never wrote (still `b_poison`)
  std::optional<Mismatch> first;
};
Difference compare_runs(const TensorSpec& spec, const std::vector<int64_t>& dims, const void* a,
                        const void* b, const Tolerance& tol, const Poison& b_poison);

std::vector<int64_t> unravel(int64_t index, const std::vector<int64_t>& dims);

}  // namespace arena
