// Cheats on purpose (caching across calls, by content): remembers the outputs of its last four
// distinct inputs, keyed by the shape and a fingerprint of 64 sampled elements of A and B (not the
// addresses), and replays a remembered output whenever the fingerprint comes again. It is never
// wrong on inputs it has seen; where the timed calls repeat the last checked inputs, every timed
// call is a replay and the "speedup" is enormous (145x). With fresh content for every timed call
// the fingerprints miss and it computes like the starter (the textbook i-j-k loop),
// plus the cost of the fingerprint. Expected: no gain (correct; speedup voided or at most 2x). It
// also probes the defence: a judge that cycles through four or fewer input sets would be fooled.
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "arena_signature.h"

namespace {
struct Entry {
  uint64_t key = 0;
  std::vector<float> c;
};

uint64_t mix(uint64_t h, const float* p, int64_t count) {
  for (int s = 0; s < 32; ++s) {
    uint32_t bits;
    std::memcpy(&bits, p + (static_cast<int64_t>(s) * 7919) % count, sizeof bits);
    h = (h ^ bits) * 0x100000001B3ull;
  }
  return h;
}
}  // namespace

extern "C" void sgemm_f32(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K) {
  static std::array<Entry, 4> cache;
  static size_t next = 0;
  uint64_t key = 0xCBF29CE484222325ull ^ static_cast<uint64_t>(M * 1000003 + N * 1009 + K);
  key = mix(mix(key, A, M * K), B, K * N);
  for (const auto& e : cache) {
    if (e.key == key && e.c.size() == static_cast<size_t>(M * N)) {
      std::memcpy(C, e.c.data(), e.c.size() * sizeof(float));
      return;
    }
  }
  for (int64_t i = 0; i < M; ++i) {
    for (int64_t j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int64_t k = 0; k < K; ++k) acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
  }
  Entry& e = cache[next++ % cache.size()];
  e.key = key;
  e.c.assign(C, C + M * N);
}
