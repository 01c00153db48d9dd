// One input element from its draw: the value of element i of an elementwise distribution
// (uniform, normal, integer) as a pure function of the tensor's parameters and i, written once
// for the host (judge/input_generator) and the device helper, which makes a tensor's inputs where
// they are used (judge/checked_calls_on_device). Uniform and integer values are bit for bit the
// same on both (IEEE double, no fused multiply-add); normal ones go through log and cos, whose
// device versions may differ from the host's in the last bit: the device's are then the inputs.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/host_device.hpp"
#include "judge/random.hpp"

namespace arena {

struct ElementDraw {
  enum class Kind : uint64_t { kUniform = 0, kNormal = 1, kInteger = 2 };
  Kind kind = Kind::kUniform;
  uint64_t key = 0;   // the tensor's random stream
  uint64_t span = 1;  // integer: high - low + 1
  double offset = 0;  // uniform, normal: value = offset + scale * draw
  double scale = 1;
  double low = 0;  // uniform, integer
  double high = 1;
  double mean = 0;  // normal
  double stddev = 1;
};

ARENA_HD inline double draw_element(const ElementDraw& d, uint64_t i) {
  switch (d.kind) {
    case ElementDraw::Kind::kUniform:
      return d.offset + d.scale * (d.low + (d.high - d.low) * random_unit(d.key, i));
    case ElementDraw::Kind::kNormal: {
      // Box-Muller from two independent uniforms of this element.
      const double u1 = 1.0 - random_unit(d.key, 2 * i);
      const double u2 = random_unit(d.key, 2 * i + 1);
      const double z = std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
      return d.offset + d.scale * (d.mean + d.stddev * z);
    }
    case ElementDraw::Kind::kInteger:
      return d.low + static_cast<double>(random_bits(d.key, i) % d.span);
  }
  return 0;
}

// A draw as the device helper receives it (runner_protocol.hpp, kDevGenerate): ten words, the
// element's dtype (core/dtype.hpp's enum value) then the draw, its doubles as bits.
constexpr int kElementDrawWords = 10;

inline void write_element_draw(uint64_t* words, uint64_t dtype, const ElementDraw& d) {
  words[0] = dtype;
  words[1] = static_cast<uint64_t>(d.kind);
  words[2] = d.key;
  words[3] = d.span;
  const double fields[] = {d.offset, d.scale, d.low, d.high, d.mean, d.stddev};
  std::memcpy(&words[4], fields, sizeof fields);
}

// The draw of `words`; *dtype gets word 0.
inline ElementDraw read_element_draw(const uint64_t* words, uint64_t* dtype) {
  ElementDraw d;
  *dtype = words[0];
  d.kind = static_cast<ElementDraw::Kind>(words[1]);
  d.key = words[2];
  d.span = words[3];
  double fields[6];
  std::memcpy(fields, &words[4], sizeof fields);
  d.offset = fields[0];
  d.scale = fields[1];
  d.low = fields[2];
  d.high = fields[3];
  d.mean = fields[4];
  d.stddev = fields[5];
  return d;
}

}  // namespace arena
