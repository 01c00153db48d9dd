// The task model: one kernel problem as task.yaml describes it (docs/task-format.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/expr.hpp"

namespace arena {

enum class Role { kInput, kOutput };

// How input values are drawn. Every call also draws a random offset in [-offset, offset] and a
// random scale in [1/scale, scale] per tensor, so constant or zero outputs cannot pass.
struct Distribution {
  // kDistinct: uniform in [low, high), every value of a row (the last dimension) different, for
  // tasks whose answer depends on order (top-k). kOffsets: a 1-D tensor of n + 1 non-decreasing
  // integers from 0 to `total` (CSR row pointers), rows of random lengths.
  enum class Kind { kUniform, kNormal, kInteger, kDistinct, kOffsets };
  Kind kind = Kind::kUniform;
  double low = -1;   // uniform and integer
  double high = 1;
  double mean = 0;   // normal
  double stddev = 1;
  double offset = 0.5;
  double scale = 2.0;
  // `low`/`high` written as expressions over the params (integer kind), e.g. indices into a
  // table of `vocab` rows: {kind: integer, low: 0, high: "vocab - 1"}. Empty: the numbers above.
  Expr low_expr;
  Expr high_expr;
  Expr total_expr;  // kOffsets: the last offset, an expression over the params (e.g. "nnz")

  // The bounds at one shape.
  double low_at(const Bindings& b) const { return low_expr.empty() ? low : low_expr.eval(b); }
  double high_at(const Bindings& b) const { return high_expr.empty() ? high : high_expr.eval(b); }
};

struct TensorSpec {
  std::string name;
  DType dtype = DType::kFp32;
  Role role = Role::kInput;
  std::vector<Expr> shape;
  Distribution distribution;
};

enum class ScalarType { kInt64, kInt32, kFloat, kDouble };

struct ScalarSpec {
  std::string name;
  ScalarType type = ScalarType::kInt64;
  Expr value;  // over the params; defaults to the param of the same name
};

struct ParamDomain {
  std::string name;
  int64_t min = 1;
  int64_t max = int64_t{1} << 31;
  int64_t multiple_of = 1;
};

struct Tolerance {
  double atol = 0;
  double rtol = 0;
};

// One point of the parameter space: a value for every param.
struct Shape {
  std::map<std::string, int64_t> params;
  std::string label() const;  // "M=256 N=256 K=129"
  bool operator==(const Shape&) const = default;
};

// Rules for shapes the agent never sees. Stored now; the generator comes with issue 5.
struct HeldoutRules {
  std::vector<std::string> categories;
  std::vector<Shape> shapes;  // declared production-realistic shapes
  int64_t count = 0;
  // > 1: on held-out shapes the last input seed draws every float input this many times larger
  // (offset and scale), where a stable kernel still passes and an unstable reduction (exp
  // without the max, a naive variance) overflows or cancels.
  double magnitude = 1;
};

// The output is a matrix product (per batch where the tensors have a leading batch axis):
// out = a · b, or a · bᵀ when `b_transposed` (b laid out [N, K]), times every 1-element tensor
// in `scales`. `arena tasks check` uses it to validate the reference with Freivalds' randomized
// check on shapes too large for the host reference.
struct ProductSpec {
  std::string out, a, b;
  bool b_transposed = false;
  std::vector<std::string> scales;
};

// A sparse matrix in CSR among the inputs: reordering its rows moves each row's stored entries
// (every `entries` tensor alike) and rebuilds `row_ptr`, so a task equivariant along `rows` can
// reorder it (judge/reordering).
struct CsrSpec {
  std::string rows;                  // the param counting the rows (listed in `equivariant`)
  std::string row_ptr;               // input, 1-D, rows + 1 integer offsets
  std::vector<std::string> entries;  // inputs, 1-D, one element per stored entry
};

struct Limits {
  int64_t memory_bytes = int64_t{2} << 30;  // all tensors of one shape together
  double timeout_s = 10;                    // one call of the solution
};

struct Task {
  std::string id;  // "<backend>/<name>", e.g. "cpu/sgemm_f32"
  std::string name;
  std::string backend;
  std::string category;
  std::string description;
  std::filesystem::path dir;
  std::filesystem::path file;  // task.yaml

  std::string entry;
  std::vector<ParamDomain> params;
  std::vector<Expr> constraints;
  std::vector<TensorSpec> tensors;  // inputs first, then outputs: the argument order
  std::vector<ScalarSpec> scalars;  // after the tensors, in this order
  std::map<DType, Tolerance> tolerance;
  std::optional<Expr> tolerance_reduction;  // atol and rtol scale with sqrt of this
  Expr flops;
  Expr bytes;
  std::vector<Shape> visible;
  HeldoutRules heldout;
  // Params along which the task is permutation-equivariant: reordering the slices of every tensor
  // axis whose extent is exactly that param (the same way for all) reorders the outputs alike.
  // The judge uses it to give every timed call fresh input content (judge/reordering).
  std::vector<std::string> equivariant;
  // Outputs that are running (inclusive prefix) sums along their equivariant axis, in integers:
  // reordered inputs change them by a whole-segment offset, which the judge undoes exactly.
  std::vector<std::string> running_sums;
  std::optional<CsrSpec> csr;
  std::optional<ProductSpec> product;
  Limits limits;
  std::filesystem::path reference;
  std::filesystem::path starter;
  std::filesystem::path baseline;
  std::vector<std::string> libraries;         // what a solution may link beyond the runtime
  std::optional<std::filesystem::path> expert;  // a vendor-grade solution, for "fraction of expert"
  // The task also comes as spec2cuda: the agent starts from this stub (it compiles and fails) and
  // writes the kernel from the README. The starter stays the baseline.
  std::optional<std::filesystem::path> stub;
  std::vector<std::string> expert_libraries;  // what the expert links besides `libraries`
  // Plain C++ computing the outputs in fp64 on the CPU, to validate the reference (tasks check).
  std::optional<std::filesystem::path> host_reference;

  // The libraries the task's expert links: `libraries` and `expert_libraries`.
  std::vector<std::string> all_libraries() const;

  Bindings bind(const Shape& shape) const;
  std::vector<int64_t> dims(const TensorSpec& t, const Shape& shape) const;
  int64_t elements(const TensorSpec& t, const Shape& shape) const;
  int64_t bytes_of(const TensorSpec& t, const Shape& shape) const;
  int64_t total_bytes(const Shape& shape) const;
  // Problems with this shape (outside a domain, constraint false, over the memory cap); empty
  // when the shape is legal.
  std::vector<std::string> shape_problems(const Shape& shape) const;
  // Throws ExprError when an expression of the task cannot be evaluated at this shape (a dim, a
  // distribution bound, flops, bytes, a scalar) or an input's bounds are inverted there.
  void check_expressions(const Shape& shape) const;
  // The tolerance for an output tensor at this shape, reduction scaling applied.
  Tolerance tolerance_for(const TensorSpec& t, const Shape& shape) const;
};

}  // namespace arena
