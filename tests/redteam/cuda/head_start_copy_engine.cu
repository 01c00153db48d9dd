// Cheats on purpose (side stream, on a copy engine, to warm the L2): inside the call it copies
// both inputs to pinned host memory on a stream of its own, waits on the host until the copies
// are done (polling their event, which blocks nothing), then runs the starter's kernel on the
// judge's stream. The whole-device hold keeps kernels off the device while the call is enqueued,
// device-to-device copies too (on an H100 a call that waited for one blocked until the hold gave
// up), but a device-to-host copy runs on a copy engine at once, reading `a` and `b` through the
// L2 before the window opens, in the hope that the "cold" kernel then finds them there. The
// values are right. What the judge does: the runner's StreamWatch
// (src/backends/cuda/stream_watch.hpp) sees copies enqueued on a stream not forked from the
// judge's, and the verdict flags work_outside_stream; and the hold sweeps the L2 after the
// release, before the start event. Expected: no gain (the flag voids the speedup).
#include "arena_signature.h"

namespace {

__global__ void add(const float* a, const float* b, float* out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

constexpr size_t kStaging = size_t{64} << 20;  // bytes of pinned host memory per input
cudaStream_t g_copies = nullptr;
cudaEvent_t g_copied = nullptr;
void* g_host = nullptr;

__attribute__((constructor)) void make_stream() {
  cudaStreamCreateWithFlags(&g_copies, cudaStreamNonBlocking);
  cudaEventCreateWithFlags(&g_copied, cudaEventDisableTiming);
  if (cudaMallocHost(&g_host, 2 * kStaging) != cudaSuccess) g_host = nullptr;
  cudaGetLastError();
}

}  // namespace

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  if (g_copies != nullptr && g_copied != nullptr && g_host != nullptr && bytes <= kStaging) {
    cudaMemcpyAsync(g_host, a, bytes, cudaMemcpyDeviceToHost, g_copies);
    cudaMemcpyAsync(static_cast<char*>(g_host) + kStaging, b, bytes, cudaMemcpyDeviceToHost, g_copies);
    cudaEventRecord(g_copied, g_copies);
    // Waits on the host, without a blocking call, until the copies are done: before the window.
    while (cudaEventQuery(g_copied) == cudaErrorNotReady) {
    }
  }
  add<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(a, b, out, n);
}
