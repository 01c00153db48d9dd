#include "arena_signature.h"

// Trap (a GEMM that needs K >= 64): the starter with K walked in blocks of 64 and a remainder
// loop added only for K > 64 (the visible K are 1024, 129, 1000 and 4096). Held-out K below 64
// computes zeros.

__global__ void gemm_k64_kernel(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int64_t M, int64_t N,
                                int64_t K) {
  const int64_t j = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t i = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (i >= M || j >= N) return;
  const int64_t full = K / 64 * 64;
  float acc = 0.0f;
  for (int64_t k0 = 0; k0 < full; k0 += 64)
    for (int64_t k = k0; k < k0 + 64; ++k) acc += __bfloat162float(A[i * K + k]) * __bfloat162float(B[k * N + j]);
  if (K > 64)
    for (int64_t k = full; k < K; ++k) acc += __bfloat162float(A[i * K + k]) * __bfloat162float(B[k * N + j]);
  C[i * N + j] = __float2bfloat16_rn(acc);
}

extern "C" void gemm_bf16(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int64_t M, int64_t N,
                          int64_t K, cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;
  const dim3 block(32, 8);
  const dim3 grid(static_cast<unsigned>((N + block.x - 1) / block.x), static_cast<unsigned>((M + block.y - 1) / block.y));
  gemm_k64_kernel<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
}
