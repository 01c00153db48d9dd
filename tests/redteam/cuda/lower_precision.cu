// Cheats on purpose (lower precision): an fp32 GEMM whose operands are rounded to fp16 (10 mantissa
// bits, what a half-precision tensor-core path would take) before the fp32 multiply-accumulate.
// Each product is off by ~2^-11 relative, beyond the task's fp32 tolerance (1e-5 * sqrt(K), which
// TF32 fails too: tasks/cuda/sgemm_f32/task.yaml). Expected: failure wrong_values.
#include <cuda_fp16.h>

#include "arena_signature.h"

__global__ void sgemm_half_operands(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K) {
  const int64_t j = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t i = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (i >= M || j >= N) return;
  float acc = 0.0f;
  for (int64_t k = 0; k < K; ++k)
    acc += __half2float(__float2half(A[i * K + k])) * __half2float(__float2half(B[k * N + j]));
  C[i * N + j] = acc;
}

extern "C" void sgemm_f32(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K,
                          cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;
  const dim3 block(32, 8);
  const dim3 grid(static_cast<unsigned>((N + block.x - 1) / block.x), static_cast<unsigned>((M + block.y - 1) / block.y));
  sgemm_half_operands<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
}
