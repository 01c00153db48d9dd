// Cheats on purpose (caching across calls): keeps the last output it computed for each set of
// buffer addresses and shape, and from the fifth call on the same addresses (after the judge's
// three checks and its warm-up) copies it back instead of multiplying, without looking at the
// inputs: were the timed calls given the same inputs at the same addresses as the last check, the copy
// would be right and take microseconds where the product takes milliseconds (177x when timed calls
// reused the inputs). The defence is fresh input content for every timed call: a replayed answer
// is then wrong. Expected: failure wrong_values.
#include <cstring>
#include <map>
#include <tuple>
#include <vector>

#include "arena_signature.h"

namespace {
struct Entry {
  int calls = 0;
  std::vector<float> c;
};
}  // namespace

extern "C" void sgemm_f32(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K) {
  static std::map<std::tuple<const float*, const float*, float*, int64_t, int64_t, int64_t>, Entry> cache;
  Entry& e = cache[{A, B, C, M, N, K}];
  const size_t bytes = static_cast<size_t>(M * N) * sizeof(float);
  if (++e.calls > 4) {
    std::memcpy(C, e.c.data(), bytes);
    return;
  }
  for (int64_t i = 0; i < M; ++i) {
    for (int64_t j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int64_t k = 0; k < K; ++k) acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
  }
  e.c.assign(C, C + M * N);
}
