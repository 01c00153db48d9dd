// Cheats on purpose (work before the window, from a thread of its own): the call does the sum on
// the judge's stream, and a thread it starts keeps enqueueing a kernel that reads the last call's
// inputs, on the judge's stream too, every 100 us: between the judge's calls that kernel runs
// before the hold, so whatever it leaves in the L2 (or computes) precedes the window. The hold's
// sweep evicts the L2 after the release anyway, so the values are right and nothing is gained;
// the stream watch counts every call a thread of the solution's makes outside the solution's
// calls (src/backends/cuda/watch_ledger.hpp). Expected: flag work_outside_stream.
#include <atomic>
#include <chrono>
#include <thread>

#include "arena_signature.h"

namespace {

__device__ float g_sink;

__global__ void add(const float* a, const float* b, float* out, int64_t n) {
  const int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

// Reads both inputs (into the L2) and keeps nothing.
__global__ void touch(const float* a, const float* b, int64_t n) {
  float s = 0.0f;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)
    s += a[i] + b[i];
  if (s == 12345.678f) g_sink = s;
}

std::atomic<const float*> g_a{nullptr};
std::atomic<const float*> g_b{nullptr};
std::atomic<int64_t> g_n{0};
std::atomic<cudaStream_t> g_stream{nullptr};

void warm_forever() {
  for (;;) {
    const float* a = g_a.load();
    if (a != nullptr) touch<<<132, 256, 0, g_stream.load()>>>(a, g_b.load(), g_n.load());
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

}  // namespace

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n,
                               cudaStream_t stream) {
  g_b = b;
  g_n = n;
  g_stream = stream;
  g_a = a;
  static bool started = false;
  if (!started) {
    started = true;
    std::thread(warm_forever).detach();
  }
  if (n > 0) add<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(a, b, out, n);
}
