// When one output element passes: both the same NaN/Inf class, or the difference within
// atol + rtol * |expected|. Written once for the host (judge/checker) and the device helper
// (its on-device check of outputs), which must agree on every element.
#pragma once

#include <cmath>

#include "core/host_device.hpp"

namespace arena {

ARENA_HD inline bool within_tolerance(double got, double expected, double atol, double rtol,
                                      double* bound) {
  *bound = atol + rtol * std::fabs(expected);
  if (std::isnan(expected)) return std::isnan(got);
  if (std::isinf(expected)) return got == expected;
  if (!std::isfinite(got)) return false;
  return std::fabs(got - expected) <= *bound;
}

}  // namespace arena
