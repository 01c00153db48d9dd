// Cheats on purpose (persisting L2): when the library loads (after the runner set the
// persisting-L2 limit to 0) it raises the limit to the device's maximum, and on every call it puts
// an access-policy window with hitProp = persisting over its inputs on the judge's stream, hoping
// that `a` and `b` survive the cache flush between timed calls. The kernel is the starter's.
//
// What the judge does (src/backends/cuda/l2_flush.cuh): before every cold sample it sets the
// persisting-L2 limit back to 0 where the solution raised it, clears any access-policy window on
// the judge's stream, calls cudaCtxResetPersistingL2Cache() (every persisting line becomes a
// normal one), then reads a buffer twice the L2's size on the same stream, evicting the inputs.
// The window it sets again inside its call covers lines that the flush has just evicted: no flag,
// and no gain. Expected: no gain (correct; speedup at most 1.3x over the starter, which this
// kernel is).
#include "arena_signature.h"

namespace {

__global__ void add(const float* a, const float* b, float* out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

int g_persist_max = 0;
int g_window_max = 0;

// Runs at dlopen, after the runner's own setup.
__attribute__((constructor)) void raise_persisting_limit() {
  int device = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&g_persist_max, cudaDevAttrMaxPersistingL2CacheSize, device);
  cudaDeviceGetAttribute(&g_window_max, cudaDevAttrMaxAccessPolicyWindowSize, device);
  if (g_persist_max > 0) cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, static_cast<size_t>(g_persist_max));
  cudaGetLastError();
}

}  // namespace

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  if (g_persist_max > 0 && g_window_max > 0) {
    // One window over both inputs (they lie in one region): from the lower to the higher end.
    const char* lo = reinterpret_cast<const char*>(a < b ? a : b);
    const char* hi = reinterpret_cast<const char*>(a < b ? b : a) + n * sizeof(float);
    size_t bytes = static_cast<size_t>(hi - lo);
    if (bytes > static_cast<size_t>(g_window_max)) bytes = static_cast<size_t>(g_window_max);
    cudaStreamAttrValue attr = {};
    attr.accessPolicyWindow.base_ptr = const_cast<char*>(lo);
    attr.accessPolicyWindow.num_bytes = bytes;
    const float ratio = static_cast<float>(g_persist_max) / static_cast<float>(bytes);
    attr.accessPolicyWindow.hitRatio = ratio < 1.0f ? ratio : 1.0f;
    attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &attr);
    cudaGetLastError();
  }
  add<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(a, b, out, n);
}
