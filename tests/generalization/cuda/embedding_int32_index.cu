#include "arena_signature.h"

// Trap (a 32-bit index): one thread per output element with `int` offsets. The largest visible
// output has 67108864 elements (16384 tokens x 4096), far below 2^31, so every index fits; a
// held-out shape with tokens * dim >= 2^31 (a long prefill at a large hidden size) overflows the
// element count and the offsets. Expected: index_overflow, with the threshold named.

__global__ void gather_kernel(const __nv_bfloat16* table, const int32_t* ids, __nv_bfloat16* out, int dim,
                              int total) {
  const int o = blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= total) return;
  const int t = o / dim, c = o % dim;
  out[o] = table[ids[t] * dim + c];
}

extern "C" void embedding_gather_bf16(const __nv_bfloat16* table, const int32_t* ids, __nv_bfloat16* out,
                                      int64_t vocab, int64_t dim, int64_t tokens, cudaStream_t stream) {
  (void)vocab;
  const int total = static_cast<int>(tokens * dim);  // "fits": the visible shapes top out at 2^26
  if (total <= 0) return;
  const int threads = 256;
  gather_kernel<<<(total + threads - 1) / threads, threads, 0, stream>>>(table, ids, out, static_cast<int>(dim),
                                                                          total);
}
