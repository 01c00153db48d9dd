#include "judge/freivalds.hpp"

#include <algorithm>
#include <cmath>

#include "judge/random.hpp"

namespace arena {
namespace {

struct Matrix {
  DType dtype = DType::kFp32;
  const void* data = nullptr;
  int64_t batch = 1, rows = 0, cols = 0;
  double at(int64_t b, int64_t i, int64_t j) const {
    return load_element(dtype, data, static_cast<size_t>((b * rows + i) * cols + j));
  }
};

Matrix matrix(const Task& task, const Shape& shape, const std::string& name, const void* data) {
  for (const auto& t : task.tensors) {
    if (t.name != name) continue;
    auto d = task.dims(t, shape);
    Matrix m{t.dtype, data, 1, d[d.size() - 2], d[d.size() - 1]};
    if (d.size() == 3) m.batch = d[0];
    return m;
  }
  return {};
}

}  // namespace

std::vector<std::string> freivalds_check(const Task& task, const Shape& shape,
                                         const std::vector<HostBuffer>& inputs, const void* out,
                                         uint64_t seed, int vectors) {
  const ProductSpec& p = *task.product;
  auto input = [&](const std::string& name) -> const void* {
    size_t k = 0;
    for (const auto& t : task.tensors) {
      if (t.role != Role::kInput) continue;
      if (t.name == name) return inputs.at(k).data();
      ++k;
    }
    return nullptr;
  };
  const Matrix c = matrix(task, shape, p.out, out);
  const Matrix a = matrix(task, shape, p.a, input(p.a));
  const Matrix b = matrix(task, shape, p.b, input(p.b));
  double scale = 1;
  for (const auto& s : p.scales)
    for (const auto& t : task.tensors)
      if (t.name == s) scale *= load_element(t.dtype, input(s), 0);
  const int64_t m = c.rows, n = c.cols, k = a.cols;
  const Tolerance tol = [&] {
    for (const auto& t : task.tensors)
      if (t.name == p.out) return task.tolerance_for(t, shape);
    return Tolerance{};
  }();

  std::vector<std::string> problems;
  std::vector<double> r(static_cast<size_t>(n)), u(static_cast<size_t>(k));
  for (int v = 0; v < vectors; ++v) {
    const uint64_t key = stream_key(seed, 0xF4E1 + static_cast<uint64_t>(v));
    for (int64_t bt = 0; bt < c.batch; ++bt) {
      for (int64_t j = 0; j < n; ++j)
        r[j] = (random_bits(key, static_cast<uint64_t>(bt * n + j)) & 1) ? 1.0 : -1.0;
      // u = b · r (b is [K, N]), or bᵀ · r (b is [N, K]).
      std::fill(u.begin(), u.end(), 0.0);
      if (!p.b_transposed) {
        for (int64_t kk = 0; kk < k; ++kk) {
          double s = 0;
          for (int64_t j = 0; j < n; ++j) s += b.at(bt, kk, j) * r[j];
          u[kk] = s;
        }
      } else {
        for (int64_t j = 0; j < n; ++j)
          for (int64_t kk = 0; kk < k; ++kk) u[kk] += b.at(bt, j, kk) * r[j];
      }
      int64_t bad = 0;
      std::string first;
      for (int64_t i = 0; i < m; ++i) {
        double y = 0, var = 0, z = 0, mag = 0;
        for (int64_t j = 0; j < n; ++j) {
          const double cij = c.at(bt, i, j);
          y += cij * r[j];
          const double e = (tol.atol + tol.rtol * std::fabs(cij)) / 2;
          var += e * e;
        }
        for (int64_t kk = 0; kk < k; ++kk) {
          const double t = a.at(bt, i, kk) * u[kk];
          z += t;
          mag += std::fabs(t);
        }
        z *= scale;
        const double bound = 6 * std::sqrt(var) + 1e-12 * mag * std::fabs(scale);
        if (!(std::fabs(y - z) <= bound)) {
          if (bad++ == 0)
            first = "row " + std::to_string(i) +
                    (c.batch > 1 ? " of batch " + std::to_string(bt) : "") +
                    ": out·r = " + std::to_string(y) + " but a·(b·r) = " + std::to_string(z) +
                    " (allowed " + std::to_string(bound) + ")";
        }
      }
      if (bad > 0) {
        problems.push_back("Freivalds' check at " + shape.label() + ": " + std::to_string(bad) +
                           " of " + std::to_string(m) + " rows of '" + p.out +
                           "' disagree with the product of '" + p.a + "' and '" + p.b +
                           "' (first: " + first + "): the reference is wrong at this size");
        return problems;
      }
    }
  }
  return problems;
}

}  // namespace arena
