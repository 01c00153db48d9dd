#include "arena_signature.h"

// embedding_gather_bf16 starter: one thread per output element, a grid-stride loop over
// tokens * dim, scalar bf16 loads and stores, the id re-read for every element. Correct for
// every shape; make it faster.

// Threads per block: a knob for `arena run --agent autotune` (every candidate is correct).
constexpr int kThreads = 256;  // arena-knob: 64 128 256 512 1024

__global__ void embedding_gather_naive_kernel(const __nv_bfloat16* table, const int32_t* ids, __nv_bfloat16* out,
                                              int64_t dim, int64_t tokens) {
  const int64_t total = tokens * dim;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t o = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; o < total; o += stride) {
    const int64_t t = o / dim;
    const int64_t c = o % dim;
    const int64_t row = ids[t];
    out[o] = table[row * dim + c];
  }
}

extern "C" void embedding_gather_bf16(const __nv_bfloat16* table, const int32_t* ids, __nv_bfloat16* out,
                                      int64_t vocab, int64_t dim, int64_t tokens, cudaStream_t stream) {
  (void)vocab;
  if (dim <= 0 || tokens <= 0) return;
  int64_t blocks = (tokens * dim + kThreads - 1) / kThreads;
  if (blocks > 65535 * 16) blocks = 65535 * 16;  // the grid-stride loop covers the rest
  embedding_gather_naive_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(table, ids, out, dim, tokens);
}
