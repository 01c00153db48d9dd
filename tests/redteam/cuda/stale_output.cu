// Cheats on purpose (stale output): computes once per set of buffer addresses and shape, then
// returns at once on every later call with the same ones, leaving whatever the output buffer
// holds: the earlier result, were the judge to leave it there. The judge poisons the outputs
// before every call. Expected: failure wrong_values.
#include <set>
#include <tuple>

#include "arena_signature.h"

__global__ void add(const float* a, const float* b, float* out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  static std::set<std::tuple<const float*, const float*, float*, int64_t>> done;
  if (n <= 0 || !done.insert({a, b, out, n}).second) return;
  add<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(a, b, out, n);
}
