#include "judge/checker.hpp"

#include <cmath>
#include <cstring>
#include <thread>

#include "core/parallel.hpp"
#include "judge/tolerance_rule.hpp"

namespace arena {
namespace {

bool within(double got, double expected, const Tolerance& tol, double* bound) {
  return within_tolerance(got, expected, tol.atol, tol.rtol, bound);
}

// True when coordinate c of a dimension of size d lies in its last partial 32-wide tile, or is
// its last index: the places a kernel without bounds handling gets wrong.
bool in_tail(int64_t c, int64_t d) {
  int64_t full = d / 32 * 32;
  return (full > 0 && full != d && c >= full) || c == d - 1;
}

}  // namespace

std::vector<int64_t> unravel(int64_t index, const std::vector<int64_t>& dims) {
  std::vector<int64_t> c(dims.size(), 0);
  for (size_t k = dims.size(); k-- > 0;) {
    if (dims[k] == 0) break;
    c[k] = index % dims[k];
    index /= dims[k];
  }
  return c;
}

namespace {

// What one contiguous chunk of an output found; chunks merge in index order.
struct ChunkCheck {
  int64_t mismatches = 0, unwritten = 0, non_finite = 0;
  double max_abs_error = 0, max_rel_error = 0;
  std::optional<Mismatch> first;
  bool all_tail = true, all_zero = true, all_same = true;
  bool all_tail_long = true;  // all_tail counting only the dimensions longer than 1
};

ChunkCheck check_chunk(const TensorSpec& spec, const std::vector<int64_t>& dims, const void* got, const void* expected,
                       const Tolerance& tol, const Poison& poison, double first_value, int64_t begin, int64_t end) {
  ChunkCheck r;
  for (int64_t i = begin; i < end; ++i) {
    auto u = static_cast<size_t>(i);
    double g = load_element(spec.dtype, got, u);
    double e = load_element(spec.dtype, expected, u);
    if (g != 0) r.all_zero = false;
    if (!(g == first_value || (std::isnan(g) && std::isnan(first_value)))) r.all_same = false;
    double bound = 0;
    if (within(g, e, tol, &bound)) continue;
    ++r.mismatches;
    bool unwritten = is_poison(poison, got, u);
    if (unwritten) ++r.unwritten;
    if (!unwritten && !std::isfinite(g) && std::isfinite(e)) ++r.non_finite;
    if (std::isfinite(g) && std::isfinite(e)) {
      double abs = std::fabs(g - e);
      r.max_abs_error = std::max(r.max_abs_error, abs);
      if (e != 0) r.max_rel_error = std::max(r.max_rel_error, abs / std::fabs(e));
    }
    std::vector<int64_t> coords = unravel(i, dims);
    if (r.all_tail || r.all_tail_long) {
      bool tail = false, tail_long = false;
      for (size_t k = 0; k < dims.size(); ++k) {
        const bool t = in_tail(coords[k], dims[k]);
        tail = tail || t;
        tail_long = tail_long || (dims[k] > 1 && t);
      }
      r.all_tail = r.all_tail && tail;
      r.all_tail_long = r.all_tail_long && tail_long;
    }
    if (!r.first) r.first = Mismatch{i, coords, g, e, bound, unwritten};
  }
  return r;
}

}  // namespace

std::string coords_text(const std::vector<int64_t>& c) {
  std::string s = "[";
  for (size_t i = 0; i < c.size(); ++i) s += (i ? ", " : "") + std::to_string(c[i]);
  return s + "]";
}

OutputCheck check_output(const TensorSpec& spec, const std::vector<int64_t>& dims, const void* got,
                         const void* expected, const Tolerance& tol, const Poison& poison) {
  OutputCheck r;
  r.tensor = spec.name;
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  r.elements = n;
  double first_value = n > 0 ? load_element(spec.dtype, got, 0) : 0;
  std::vector<ChunkCheck> parts(std::max(1u, std::thread::hardware_concurrency()));
  size_t used = parallel_chunks(n, [&](size_t c, int64_t begin, int64_t end) {
    parts[c] = check_chunk(spec, dims, got, expected, tol, poison, first_value, begin, end);
  });
  bool all_tail = true, all_tail_long = true, all_zero = true, all_same = true;
  for (size_t c = 0; c < used; ++c) {
    const ChunkCheck& p = parts[c];
    r.mismatches += p.mismatches;
    r.unwritten += p.unwritten;
    r.non_finite += p.non_finite;
    r.max_abs_error = std::max(r.max_abs_error, p.max_abs_error);
    r.max_rel_error = std::max(r.max_rel_error, p.max_rel_error);
    if (!r.first && p.first) r.first = p.first;
    all_tail = all_tail && p.all_tail;
    all_tail_long = all_tail_long && p.all_tail_long;
    all_zero = all_zero && p.all_zero;
    all_same = all_same && p.all_same;
  }
  if (r.mismatches > 0) {
    // A dimension of size 1 is in its own tail (its only index is its last): that names a
    // partial tile only when the whole tensor is wrong (rows = 1 under a rows-by-4 kernel); a
    // part of a 1 x N row wrong is placed by its other dimensions.
    if (r.mismatches < n) all_tail = all_tail_long;
    r.where = r.mismatches * 2 > n ? "everywhere" : (all_tail ? "tail" : "interior");
    r.only_tail = all_tail;
    if (r.unwritten == n) {
      r.pattern = "unwritten";
    } else if (all_zero) {
      r.pattern = "zeros";
    } else if (all_same) {
      r.pattern = "constant";
    }
  }
  return r;
}

Difference compare_runs(const TensorSpec& spec, const std::vector<int64_t>& dims, const void* a,
                        const void* b, const Tolerance& tol, const Poison& b_poison) {
  Difference d;
  int64_t n = 1;
  for (int64_t x : dims) n *= x;
  size_t size = dtype_size(spec.dtype);
  for (int64_t i = 0; i < n; ++i) {
    auto u = static_cast<size_t>(i);
    if (std::memcmp(static_cast<const char*>(a) + u * size, static_cast<const char*>(b) + u * size, size) == 0)
      continue;
    ++d.bitwise;
    double x = load_element(spec.dtype, a, u);
    double y = load_element(spec.dtype, b, u);
    double bound = 0;
    if (within(y, x, tol, &bound)) continue;
    ++d.differing;
    if (is_poison(b_poison, b, u)) ++d.unwritten;
    if (!d.first) d.first = Mismatch{i, unravel(i, dims), y, x, bound, false};
  }
  return d;
}

}  // namespace arena
