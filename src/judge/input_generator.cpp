#include "judge/input_generator.hpp"

#include <cmath>

#include "core/parallel.hpp"
#include "judge/random.hpp"

namespace arena {

std::vector<HostBuffer> generate_inputs(const Task& task, const Shape& shape, uint64_t seed) {
  std::vector<HostBuffer> out;
  uint64_t stream = 0;
  for (const auto& t : task.tensors) {
    if (t.role != Role::kInput) continue;
    int64_t n = task.elements(t, shape);
    HostBuffer buf(static_cast<size_t>(n) * dtype_size(t.dtype));
    const Distribution& d = t.distribution;
    uint64_t key = stream_key(seed, stream++);
    // Per-call offset and scale (element indices -1 and -2 of the tensor's stream).
    double offset = d.offset * (2 * random_unit(key, ~0ull) - 1);
    double log_scale = std::log(d.scale) * (2 * random_unit(key, ~0ull - 1) - 1);
    double scale = std::exp(log_scale);
    const Bindings b = task.bind(shape);
    const double low = d.low_at(b), high = d.high_at(b);
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
        }
        store_element(t.dtype, buf.data(), static_cast<size_t>(i), v);
      }
    });
    out.push_back(std::move(buf));
  }
  return out;
}

}  // namespace arena
