#include "arena_signature.h"

// gemm_fp8_e4m3 reference: 32×32 tiles of A and B (both K-contiguous, so a warp loads 32
// consecutive k of one row) staged through shared memory as fp32, exact for fp8-e4m3. Every
// product (exact: 4 significant bits times 4) and the whole dot product in double, multiplied in
// double by scale_a and scale_b, the result narrowed to fp32 and rounded once to bf16 (nearest
// even), as the CPU reference does. Each thread owns four elements of out. Edge tiles are
// zero-padded; a grid-stride loop over row tiles keeps any M inside the launch limits.

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;

__global__ void __launch_bounds__(kTile * kRowsPerPass)
reference_gemm_fp8_e4m3(const __nv_fp8_e4m3* __restrict__ A, const __nv_fp8_e4m3* __restrict__ B,
                        const float* __restrict__ scale_a, const float* __restrict__ scale_b,
                        __nv_bfloat16* __restrict__ out, int64_t M, int64_t N, int64_t K) {
  __shared__ float As[kTile][kTile + 1];  // As[r][kk] = A[row0 + r][k0 + kk]
  __shared__ float Bs[kTile][kTile + 1];  // Bs[c][kk] = B[col0 + c][k0 + kk]
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t col0 = static_cast<int64_t>(blockIdx.x) * kTile;
  const double scale = static_cast<double>(*scale_a) * static_cast<double>(*scale_b);
  for (int64_t row0 = static_cast<int64_t>(blockIdx.y) * kTile; row0 < M; row0 += static_cast<int64_t>(gridDim.y) * kTile) {
    double acc[kTile / kRowsPerPass] = {};
    for (int64_t k0 = 0; k0 < K; k0 += kTile) {
      for (int r = ty; r < kTile; r += kRowsPerPass) {
        const int64_t k = k0 + tx;
        const int64_t ar = row0 + r, bc = col0 + r;
        As[r][tx] = (ar < M && k < K) ? static_cast<float>(A[ar * K + k]) : 0.0f;
        Bs[r][tx] = (bc < N && k < K) ? static_cast<float>(B[bc * K + k]) : 0.0f;
      }
      __syncthreads();
      for (int kk = 0; kk < kTile; ++kk) {
        const double b = static_cast<double>(Bs[tx][kk]);
        for (int q = 0; q < kTile / kRowsPerPass; ++q)
          acc[q] = fma(static_cast<double>(As[ty + q * kRowsPerPass][kk]), b, acc[q]);
      }
      __syncthreads();
    }
    for (int q = 0; q < kTile / kRowsPerPass; ++q) {
      const int64_t r = row0 + ty + q * kRowsPerPass, c = col0 + tx;
      if (r < M && c < N) out[r * N + c] = __float2bfloat16_rn(static_cast<float>(acc[q] * scale));
    }
  }
}

extern "C" void gemm_fp8_e4m3(const __nv_fp8_e4m3* A, const __nv_fp8_e4m3* B, const float* scale_a,
                              const float* scale_b, __nv_bfloat16* out, int64_t M, int64_t N, int64_t K,
                              cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;
  int64_t row_tiles = (M + kTile - 1) / kTile;
  if (row_tiles > 65535) row_tiles = 65535;
  const dim3 grid(static_cast<unsigned>((N + kTile - 1) / kTile), static_cast<unsigned>(row_tiles));
  reference_gemm_fp8_e4m3<<<grid, dim3(kTile, kRowsPerPass), 0, stream>>>(A, B, scale_a, scale_b, out, M, N, K);
}
