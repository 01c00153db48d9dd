// Cheats on purpose (caching across calls): keeps, on the device, the last product it computed for
// each set of buffer addresses and shape, and from the fifth call on the same addresses copies it
// back (one device-to-device copy on the judge's stream) instead of multiplying, without looking
// at the inputs. Were the timed calls given the same inputs at the same addresses as the last
// check, the copy would be right and take microseconds where the product takes a millisecond. The
// defence is fresh input content (or a fresh placement) for every timed call, each timed output
// checked: a replayed answer is then wrong. Expected: failure wrong_values.
#include <map>
#include <tuple>

#include "arena_signature.h"

__global__ void sgemm_kernel(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K) {
  const int64_t j = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t i = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (i >= M || j >= N) return;
  float acc = 0.0f;
  for (int64_t k = 0; k < K; ++k) acc += A[i * K + k] * B[k * N + j];
  C[i * N + j] = acc;
}

namespace {
struct Entry {
  int calls = 0;
  float* saved = nullptr;
};
}  // namespace

extern "C" void sgemm_f32(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K,
                          cudaStream_t stream) {
  static std::map<std::tuple<const float*, const float*, float*, int64_t, int64_t, int64_t>, Entry> cache;
  Entry& e = cache[{A, B, C, M, N, K}];
  const size_t bytes = static_cast<size_t>(M * N) * sizeof(float);
  if (e.saved == nullptr && cudaMallocAsync(&e.saved, bytes, stream) != cudaSuccess) e.saved = nullptr;
  if (++e.calls > 4 && e.saved != nullptr) {
    cudaMemcpyAsync(C, e.saved, bytes, cudaMemcpyDeviceToDevice, stream);
    return;
  }
  const dim3 block(32, 8);
  const dim3 grid(static_cast<unsigned>((N + 31) / 32), static_cast<unsigned>((M + 7) / 8));
  sgemm_kernel<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
  if (e.saved != nullptr) cudaMemcpyAsync(e.saved, C, bytes, cudaMemcpyDeviceToDevice, stream);
}
