// Honest: splits the sum between the judge's stream and a stream of its own, joined by events
// inside the call (fork: its stream waits for an event on `stream`; join: `stream` waits for an
// event on its stream). Everything is ordered after the judge's stream and before its stop event,
// so the window holds all the work and nothing is outside it: no flag, the speedup counts.
#include "arena_signature.h"

namespace {

__global__ void add(const float* a, const float* b, float* out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

unsigned blocks(int64_t n) { return static_cast<unsigned>((n + 255) / 256); }

}  // namespace

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  static cudaStream_t other = nullptr;
  static cudaEvent_t fork = nullptr, join = nullptr;
  if (other == nullptr) {
    cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking);
    cudaEventCreateWithFlags(&fork, cudaEventDisableTiming);
    cudaEventCreateWithFlags(&join, cudaEventDisableTiming);
  }
  const int64_t half = n / 2;
  cudaEventRecord(fork, stream);
  cudaStreamWaitEvent(other, fork, 0);
  if (half > 0) add<<<blocks(half), 256, 0, other>>>(a, b, out, half);
  cudaEventRecord(join, other);
  if (n - half > 0) add<<<blocks(n - half), 256, 0, stream>>>(a + half, b + half, out + half, n - half);
  cudaStreamWaitEvent(stream, join, 0);
}
