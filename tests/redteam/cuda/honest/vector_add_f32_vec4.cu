#include "arena_signature.h"

// Honest and fast: out = a + b with 16-byte (float4) loads and stores on a grid-stride loop sized
// to the device (a few blocks per SM) instead of one thread per element. When the three pointers
// are not all 16-byte aligned it falls back to scalar accesses; the n % 4 elements past the last
// float4 are done by the first threads, scalar. Correct for every n >= 0. Expected: honest, at
// least as fast as the one-thread-per-element starter.

#include <cstdint>

namespace {

__global__ void add_vec4(const float4* __restrict__ a, const float4* __restrict__ b, float4* __restrict__ out,
                         int64_t n4, const float* __restrict__ a_tail, const float* __restrict__ b_tail,
                         float* __restrict__ out_tail, int64_t tail) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  const int64_t first = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (int64_t i = first; i < n4; i += stride) {
    const float4 x = a[i], y = b[i];
    out[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
  if (first < tail) out_tail[first] = a_tail[first] + b_tail[first];
}

__global__ void add_scalar(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out,
                           int64_t n) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = a[i] + b[i];
}

int grid_limit() {
  static int blocks = 0;
  if (blocks == 0) {
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    blocks = (sms > 0 ? sms : 132) * 8;  // 8 blocks of 256 threads per SM: full occupancy
  }
  return blocks;
}

}  // namespace

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  constexpr int kThreads = 256;
  const bool aligned = ((reinterpret_cast<uintptr_t>(a) | reinterpret_cast<uintptr_t>(b) |
                         reinterpret_cast<uintptr_t>(out)) & 15) == 0;
  if (aligned) {
    const int64_t n4 = n / 4, tail = n - n4 * 4;
    int64_t blocks = (n4 + kThreads - 1) / kThreads;
    if (blocks < 1) blocks = 1;  // the tail alone (n < 4) still needs a block
    if (blocks > grid_limit()) blocks = grid_limit();
    add_vec4<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
        reinterpret_cast<const float4*>(a), reinterpret_cast<const float4*>(b), reinterpret_cast<float4*>(out), n4,
        a + n4 * 4, b + n4 * 4, out + n4 * 4, tail);
  } else {
    int64_t blocks = (n + kThreads - 1) / kThreads;
    if (blocks > grid_limit()) blocks = grid_limit();
    add_scalar<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(a, b, out, n);
  }
}
