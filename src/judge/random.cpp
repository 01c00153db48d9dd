#include "judge/random.hpp"

#include <random>

namespace arena {

uint64_t secret_seed() {
  std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32) ^ rd();
}

}  // namespace arena
