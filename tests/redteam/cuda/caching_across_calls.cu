// Cheats on purpose (caching across calls): keeps, on the device, the product it computed for each
// set of buffer addresses and shape, and on every later call with the same addresses copies it
// back (one device-to-device copy on the judge's stream) instead of multiplying, without looking
// at the inputs. Were a repeat call given the same inputs at the same addresses, the copy would
// be right and take microseconds where the product takes far longer. The defence is fresh input
// content at the same addresses (the checks' later seeds) and for every timed call (the timed
// lane's placements come round again every few pairs), each output checked: a replayed answer is
// then wrong. The saved products live in one allocation made at the first call, which the judge
// never holds the device for. Expected: failure wrong_values.
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
constexpr int kSlots = 64;  // products saved at most (the timed lane has up to 64 placements)
struct Entry {
  int calls = 0;
  float* saved = nullptr;
};
}  // namespace

extern "C" void sgemm_f32(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K,
                          cudaStream_t stream) {
  static std::map<std::tuple<const float*, const float*, float*, int64_t, int64_t, int64_t>, Entry> cache;
  static float* pool = nullptr;
  static size_t slot_bytes = 0;
  static int used = 0;
  const size_t bytes = static_cast<size_t>(M * N) * sizeof(float);
  if (pool == nullptr) {
    slot_bytes = bytes;
    if (cudaMalloc(&pool, kSlots * slot_bytes) != cudaSuccess) pool = nullptr;
  }
  Entry& e = cache[{A, B, C, M, N, K}];
  if (e.calls == 0 && pool != nullptr && bytes <= slot_bytes && used < kSlots)
    e.saved = pool + static_cast<size_t>(used++) * (slot_bytes / sizeof(float));
  if (++e.calls > 1 && e.saved != nullptr) {
    cudaMemcpyAsync(C, e.saved, bytes, cudaMemcpyDeviceToDevice, stream);
    return;
  }
  const dim3 block(32, 8);
  const dim3 grid(static_cast<unsigned>((N + 31) / 32), static_cast<unsigned>((M + 7) / 8));
  sgemm_kernel<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
  if (e.saved != nullptr) cudaMemcpyAsync(e.saved, C, bytes, cudaMemcpyDeviceToDevice, stream);
}
