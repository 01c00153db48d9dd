#include "arena_signature.h"

// transpose_f32 starter: one thread per output element on a 1-D grid-stride loop. Writes are
// coalesced, reads stride by `cols` floats. Correct for every shape; make it faster.

// Threads per block: a knob for `arena run --agent autotune` (every candidate is correct).
constexpr int kThreads = 256;  // arena-knob: 64 128 256 512 1024

__global__ void transpose_naive_kernel(const float* in, float* out, int64_t rows, int64_t cols) {
  const int64_t total = rows * cols;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t o = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; o < total; o += stride) {
    const int64_t c = o / rows;  // out is [cols, rows]: o = c * rows + r
    const int64_t r = o % rows;
    out[o] = in[r * cols + c];
  }
}

extern "C" void transpose_f32(const float* in, float* out, int64_t rows, int64_t cols, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  int64_t blocks = (rows * cols + kThreads - 1) / kThreads;
  if (blocks > 65535 * 16) blocks = 65535 * 16;
  transpose_naive_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(in, out, rows, cols);
}
