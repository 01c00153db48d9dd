// Cheats on purpose (side stream, on a copy engine, to warm the L2): inside the call it copies
// both inputs, device to device, into `out` on a stream of its own, waits on the host until the
// copies are done (polling their event, which blocks nothing), makes the judge's stream wait for
// them (an event: a fork and join the judge allows), then runs the starter's kernel. The hold
// keeps kernels off the device while the call is enqueued, but not the copy engines: the copies
// are done before the window opens and leave `a` and `b` (and `out`) in the L2, so the "cold"
// kernel reads its inputs from the cache. The values are right (the kernel overwrites what the
// copies wrote). With the L2 swept before the hold (the runner until 2026-12-06) that was a head
// start nothing saw; now the hold sweeps the L2 after the release
// (src/backends/cuda/hold_kernel.cuh), evicting what the copies brought in before the start
// event. Expected: no gain (correct, at most 1.2x over the starter, whose kernel this is).
#include "arena_signature.h"

namespace {

__global__ void add(const float* a, const float* b, float* out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

cudaStream_t g_copies = nullptr;
cudaEvent_t g_copied = nullptr;

__attribute__((constructor)) void make_stream() {
  cudaStreamCreateWithFlags(&g_copies, cudaStreamNonBlocking);
  cudaEventCreateWithFlags(&g_copied, cudaEventDisableTiming);
  cudaGetLastError();
}

}  // namespace

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  if (g_copies != nullptr && g_copied != nullptr) {
    cudaMemcpyAsync(out, a, bytes, cudaMemcpyDeviceToDevice, g_copies);
    cudaMemcpyAsync(out, b, bytes, cudaMemcpyDeviceToDevice, g_copies);
    cudaEventRecord(g_copied, g_copies);
    // Waits on the host for the copies, without a blocking call (the hold does not hold them):
    // however long they take, they are done before the window opens.
    while (cudaEventQuery(g_copied) == cudaErrorNotReady) {
    }
    cudaStreamWaitEvent(stream, g_copied, 0);
  }
  add<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(a, b, out, n);
}
