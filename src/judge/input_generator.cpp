#include "judge/input_generator.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "core/parallel.hpp"
#include "judge/element_draw.hpp"
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

namespace {

// The per-call offset and scale of input `tensor` and its random stream (its rank among the
// inputs under `seed`), and the bounds at `shape`.
struct TensorDraw {
  uint64_t key = 0;
  double offset = 0, scale = 1, low = 0, high = 1;
};

TensorDraw tensor_draw(const Task& task, const Shape& shape, size_t tensor, uint64_t seed, double magnitude) {
  uint64_t stream = 0;
  for (size_t i = 0; i < tensor; ++i) stream += task.tensors[i].role == Role::kInput ? 1 : 0;
  const Distribution& d = task.tensors.at(tensor).distribution;
  TensorDraw t;
  t.key = stream_key(seed, stream);
  // Per-call offset and scale (element indices -1 and -2 of the tensor's stream).
  t.offset = d.offset * (2 * random_unit(t.key, ~0ull) - 1) * magnitude;
  const double log_scale = std::log(d.scale) * (2 * random_unit(t.key, ~0ull - 1) - 1);
  t.scale = std::exp(log_scale) * magnitude;
  const Bindings b = task.bind(shape);
  t.low = d.low_at(b);
  t.high = d.high_at(b);
  return t;
}

}  // namespace

std::optional<ElementDraw> elementwise_draw(const Task& task, const Shape& shape, size_t tensor, uint64_t seed,
                                            double magnitude) {
  const Distribution& d = task.tensors.at(tensor).distribution;
  const TensorDraw t = tensor_draw(task, shape, tensor, seed, magnitude);
  ElementDraw e;
  e.key = t.key;
  e.offset = t.offset;
  e.scale = t.scale;
  e.low = t.low;
  e.high = t.high;
  e.mean = d.mean;
  e.stddev = d.stddev;
  switch (d.kind) {
    case Distribution::Kind::kUniform:
      e.kind = ElementDraw::Kind::kUniform;
      return e;
    case Distribution::Kind::kNormal:
      e.kind = ElementDraw::Kind::kNormal;
      return e;
    case Distribution::Kind::kInteger:
      if (!(t.high >= t.low))
        throw InputError("task " + task.id + ": input '" + task.tensors[tensor].name + "' draws integers from " +
                         std::to_string(t.low) + " to " + std::to_string(t.high) + " at " + shape.label() +
                         ": its distribution's low exceeds its high there; fix low/high in task.yaml");
      e.kind = ElementDraw::Kind::kInteger;
      e.span = static_cast<uint64_t>(t.high - t.low + 1);
      return e;
    case Distribution::Kind::kDistinct:
    case Distribution::Kind::kOffsets:
      break;
  }
  return std::nullopt;
}

HostBuffer generate_input(const Task& task, const Shape& shape, size_t tensor, uint64_t seed, double magnitude) {
  const TensorSpec& t = task.tensors.at(tensor);
  const int64_t n = task.elements(t, shape);
  HostBuffer buf(static_cast<size_t>(n) * dtype_size(t.dtype));
  const Distribution& d = t.distribution;
  if (auto e = elementwise_draw(task, shape, tensor, seed, magnitude)) {
    parallel_chunks(n, [&](size_t, int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i)
        store_element(t.dtype, buf.data(), static_cast<size_t>(i), draw_element(*e, static_cast<uint64_t>(i)));
    });
    return buf;
  }
  const TensorDraw td = tensor_draw(task, shape, tensor, seed, magnitude);
  if (d.kind == Distribution::Kind::kOffsets) {
    fill_offsets(t.dtype, buf.data(), n, static_cast<int64_t>(d.total_expr.eval(task.bind(shape))), td.key);
  } else {  // distinct
    int64_t row = t.shape.empty() ? n : std::max<int64_t>(1, task.dims(t, shape).back());
    fill_distinct(t.dtype, buf.data(), n, row, td.offset + td.scale * td.low, td.scale * (td.high - td.low), td.key);
  }
  return buf;
}

std::vector<HostBuffer> generate_inputs(const Task& task, const Shape& shape, uint64_t seed, double magnitude) {
  std::vector<HostBuffer> out;
  for (size_t i = 0; i < task.tensors.size(); ++i)
    if (task.tensors[i].role == Role::kInput) out.push_back(generate_input(task, shape, i, seed, magnitude));
  return out;
}

}  // namespace arena
