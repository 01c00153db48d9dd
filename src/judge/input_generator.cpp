#include "judge/input_generator.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/parallel.hpp"
#include "judge/random.hpp"

namespace arena {
namespace {

// Every row of `row` elements holds a random permutation of `row` bins of [low, low + width),
// one value per bin, drawn from the middle half of its bin: values of a row are at least
// width / (2 row) apart, so they stay distinct after rounding to fp32 for rows up to 2^20.
void fill_distinct(DType dtype, std::byte* data, int64_t n, int64_t row, double low, double width, uint64_t key) {
  const int64_t rows = n / row;
  parallel_chunks(
      rows,
      [&](size_t, int64_t begin, int64_t end) {
        std::vector<int64_t> perm(static_cast<size_t>(row));
        for (int64_t r = begin; r < end; ++r) {
          for (int64_t j = 0; j < row; ++j) perm[j] = j;
          const auto base = static_cast<uint64_t>(r * row);
          for (int64_t j = row - 1; j > 0; --j)  // Fisher-Yates
            std::swap(perm[j], perm[random_bits(key, base + static_cast<uint64_t>(j)) % static_cast<uint64_t>(j + 1)]);
          for (int64_t j = 0; j < row; ++j) {
            double u = 0.25 + 0.5 * random_unit(key ^ 0xD15C, base + static_cast<uint64_t>(j));
            double v = low + width * (static_cast<double>(perm[j]) + u) / static_cast<double>(row);
            store_element(dtype, data, static_cast<size_t>(r * row + j), v);
          }
        }
      },
      std::max<int64_t>(1, (int64_t{1} << 16) / row));
}

// n offsets from 0 to `total`, non-decreasing: row lengths proportional to exponential weights,
// one row in 64 sixteen times heavier (the long rows that unbalance a row-per-thread kernel).
void fill_offsets(DType dtype, std::byte* data, int64_t n, int64_t total, uint64_t key) {
  if (n <= 0) return;
  std::vector<double> prefix(static_cast<size_t>(n), 0.0);
  for (int64_t i = 1; i < n; ++i) {
    auto u = static_cast<uint64_t>(i);
    double w = -std::log(1.0 - random_unit(key, u)) * (random_bits(key ^ 0x10F6, u) % 64 == 0 ? 16.0 : 1.0);
    prefix[i] = prefix[i - 1] + w;
  }
  const double sum = prefix[n - 1];
  for (int64_t i = 0; i < n; ++i) {
    double v = i == n - 1 || sum <= 0 ? (i == n - 1 ? static_cast<double>(total) : 0.0)
                                      : std::floor(static_cast<double>(total) * prefix[i] / sum);
    store_element(dtype, data, static_cast<size_t>(i), v);
  }
}

}  // namespace

std::vector<HostBuffer> generate_inputs(const Task& task, const Shape& shape, uint64_t seed, double magnitude) {
  std::vector<HostBuffer> out;
  uint64_t stream = 0;
  for (const auto& t : task.tensors) {
    if (t.role != Role::kInput) continue;
    int64_t n = task.elements(t, shape);
    HostBuffer buf(static_cast<size_t>(n) * dtype_size(t.dtype));
    const Distribution& d = t.distribution;
    uint64_t key = stream_key(seed, stream++);
    // Per-call offset and scale (element indices -1 and -2 of the tensor's stream).
    double offset = d.offset * (2 * random_unit(key, ~0ull) - 1) * magnitude;
    double log_scale = std::log(d.scale) * (2 * random_unit(key, ~0ull - 1) - 1);
    double scale = std::exp(log_scale) * magnitude;
    const Bindings b = task.bind(shape);
    const double low = d.low_at(b), high = d.high_at(b);
    if (d.kind == Distribution::Kind::kOffsets) {
      fill_offsets(t.dtype, buf.data(), n, static_cast<int64_t>(d.total_expr.eval(b)), key);
      out.push_back(std::move(buf));
      continue;
    }
    if (d.kind == Distribution::Kind::kDistinct) {
      int64_t row = t.shape.empty() ? n : std::max<int64_t>(1, task.dims(t, shape).back());
      fill_distinct(t.dtype, buf.data(), n, row, offset + scale * low, scale * (high - low), key);
      out.push_back(std::move(buf));
      continue;
    }
    auto span = static_cast<uint64_t>(high - low + 1);
    parallel_chunks(n, [&](size_t, int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        auto u = static_cast<uint64_t>(i);
        double v = 0;
        switch (d.kind) {
          case Distribution::Kind::kUniform:
            v = offset + scale * (low + (high - low) * random_unit(key, u));
            break;
          case Distribution::Kind::kNormal: {
            // Box-Muller from two independent uniforms of this element.
            double u1 = 1.0 - random_unit(key, 2 * u);
            double u2 = random_unit(key, 2 * u + 1);
            double z = std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
            v = offset + scale * (d.mean + d.stddev * z);
            break;
          }
          case Distribution::Kind::kInteger:
            v = low + static_cast<double>(random_bits(key, u) % span);
            break;
          case Distribution::Kind::kDistinct:
          case Distribution::Kind::kOffsets:
            break;  // filled above
        }
        store_element(t.dtype, buf.data(), static_cast<size_t>(i), v);
      }
    });
    out.push_back(std::move(buf));
  }
  return out;
}

}  // namespace arena
