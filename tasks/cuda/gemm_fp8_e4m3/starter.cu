#include "arena_signature.h"

// gemm_fp8_e4m3 starter: one thread per element of out, fp8 operands converted to fp32 (exact)
// and their products accumulated in an fp32 register, then multiplied by scale_a·scale_b
// (read from device memory) and rounded to bf16 (nearest even). threadIdx.x runs along N, so
// writes of out are coalesced; both operands are K-contiguous, so the threads of a warp read 32
// different rows of B (the cache absorbs part of it). No tensor cores, no shared memory.
// Correct for every shape; make it faster.

// Rows of C per block of 32 columns: a knob for `arena run --agent autotune` (every candidate
// is correct).
constexpr int kBlockRows = 8;  // arena-knob: 1 2 4 8 16 32

__global__ void gemm_fp8_naive_kernel(const __nv_fp8_e4m3* A, const __nv_fp8_e4m3* B, const float* scale_a,
                                      const float* scale_b, __nv_bfloat16* out, int64_t M, int64_t N, int64_t K) {
  const int64_t j = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;  // column of out (row of B)
  const int64_t i = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;  // row of out (row of A)
  if (i >= M || j >= N) return;
  const __nv_fp8_e4m3* a = A + i * K;
  const __nv_fp8_e4m3* b = B + j * K;
  float acc = 0.0f;
  for (int64_t k = 0; k < K; ++k) acc += static_cast<float>(a[k]) * static_cast<float>(b[k]);
  out[i * N + j] = __float2bfloat16_rn(acc * (*scale_a) * (*scale_b));
}

extern "C" void gemm_fp8_e4m3(const __nv_fp8_e4m3* A, const __nv_fp8_e4m3* B, const float* scale_a,
                              const float* scale_b, __nv_bfloat16* out, int64_t M, int64_t N, int64_t K,
                              cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;
  const dim3 block(32, kBlockRows);
  // M <= 16384 gives gridDim.y <= 16384, inside the 65535 limit.
  const dim3 grid(static_cast<unsigned>((N + block.x - 1) / block.x), static_cast<unsigned>((M + block.y - 1) / block.y));
  gemm_fp8_naive_kernel<<<grid, block, 0, stream>>>(A, B, scale_a, scale_b, out, M, N, K);
}
