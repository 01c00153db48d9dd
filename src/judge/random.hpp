// Counter-based random numbers: value i of stream k under seed s is a pure function of (s, k, i),
// so any element can be made anywhere (host or device) in any order, and a seed reproduces all.
#pragma once

#include <cstdint>

#include "core/host_device.hpp"

namespace arena {

ARENA_HD inline uint64_t mix64(uint64_t x) {  // splitmix64's finalizer
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

ARENA_HD inline uint64_t stream_key(uint64_t seed, uint64_t stream) { return mix64(seed ^ mix64(stream + 0x5851F42D4C957F2Dull)); }

ARENA_HD inline uint64_t random_bits(uint64_t key, uint64_t i) { return mix64(key + mix64(i)); }

// Uniform in [0, 1) with 53 random bits.
ARENA_HD inline double random_unit(uint64_t key, uint64_t i) {
  return static_cast<double>(random_bits(key, i) >> 11) * 0x1.0p-53;
}

// A fresh 64-bit seed from the operating system.
uint64_t secret_seed();

}  // namespace arena
