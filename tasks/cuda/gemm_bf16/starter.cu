#include "arena_signature.h"

// gemm_bf16 starter: one thread per element of C, bf16 operands converted to fp32 and
// accumulated in an fp32 register, C rounded to bf16 (nearest even) at the end. threadIdx.x runs
// along N, so reads of B and writes of C are coalesced. No tensor cores, no shared memory.
// Correct for every shape; make it faster.

// Rows of C per block of 32 columns: a knob for `arena run --agent autotune` (every candidate
// is correct).
constexpr int kBlockRows = 8;  // arena-knob: 1 2 4 8 16 32

__global__ void gemm_bf16_naive_kernel(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int64_t M,
                                       int64_t N, int64_t K) {
  const int64_t j = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;  // column of C
  const int64_t i = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;  // row of C
  if (i >= M || j >= N) return;
  float acc = 0.0f;
  for (int64_t k = 0; k < K; ++k) acc += __bfloat162float(A[i * K + k]) * __bfloat162float(B[k * N + j]);
  C[i * N + j] = __float2bfloat16_rn(acc);
}

extern "C" void gemm_bf16(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int64_t M, int64_t N,
                          int64_t K, cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;
  const dim3 block(32, kBlockRows);
  // M <= 16384 gives gridDim.y <= 16384, inside the 65535 limit.
  const dim3 grid(static_cast<unsigned>((N + block.x - 1) / block.x), static_cast<unsigned>((M + block.y - 1) / block.y));
  gemm_bf16_naive_kernel<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
}
