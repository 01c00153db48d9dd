#include "arena_signature.h"

// batched_gemm_bf16 reference: gemm_bf16's reference with one z-slice of the grid per batch
// entry. 32×32 tiles of A[b] and B[b] staged through shared memory (as fp32, exact for bf16),
// every product and the whole dot product in double, the result narrowed to fp32 and rounded
// once to bf16 (nearest even). Each thread owns four elements of C[b]. Edge tiles are
// zero-padded; a grid-stride loop over row tiles keeps any M inside the launch limits, and one
// over batch entries any batch.

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;

__global__ void __launch_bounds__(kTile * kRowsPerPass)
reference_batched_gemm_bf16(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                            __nv_bfloat16* __restrict__ C, int64_t batch, int64_t M, int64_t N, int64_t K) {
  __shared__ float As[kTile][kTile + 1];
  __shared__ float Bs[kTile][kTile + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t col0 = static_cast<int64_t>(blockIdx.x) * kTile;
  for (int64_t b = blockIdx.z; b < batch; b += gridDim.z) {
    const __nv_bfloat16* Ab = A + b * M * K;
    const __nv_bfloat16* Bb = B + b * K * N;
    __nv_bfloat16* Cb = C + b * M * N;
    for (int64_t row0 = static_cast<int64_t>(blockIdx.y) * kTile; row0 < M;
         row0 += static_cast<int64_t>(gridDim.y) * kTile) {
      double acc[kTile / kRowsPerPass] = {};
      for (int64_t k0 = 0; k0 < K; k0 += kTile) {
        for (int r = ty; r < kTile; r += kRowsPerPass) {
          const int64_t ar = row0 + r, ac = k0 + tx;
          As[r][tx] = (ar < M && ac < K) ? __bfloat162float(Ab[ar * K + ac]) : 0.0f;
          const int64_t br = k0 + r, bc = col0 + tx;
          Bs[r][tx] = (br < K && bc < N) ? __bfloat162float(Bb[br * N + bc]) : 0.0f;
        }
        __syncthreads();
        for (int kk = 0; kk < kTile; ++kk) {
          const double bv = static_cast<double>(Bs[kk][tx]);
          for (int q = 0; q < kTile / kRowsPerPass; ++q)
            acc[q] = fma(static_cast<double>(As[ty + q * kRowsPerPass][kk]), bv, acc[q]);
        }
        __syncthreads();
      }
      for (int q = 0; q < kTile / kRowsPerPass; ++q) {
        const int64_t r = row0 + ty + q * kRowsPerPass, c = col0 + tx;
        if (r < M && c < N) Cb[r * N + c] = __float2bfloat16_rn(static_cast<float>(acc[q]));
      }
    }
  }
}

extern "C" void batched_gemm_bf16(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int64_t batch,
                                  int64_t M, int64_t N, int64_t K, cudaStream_t stream) {
  if (batch <= 0 || M <= 0 || N <= 0) return;
  int64_t row_tiles = (M + kTile - 1) / kTile;
  if (row_tiles > 65535) row_tiles = 65535;
  const int64_t slices = batch > 65535 ? 65535 : batch;
  const dim3 grid(static_cast<unsigned>((N + kTile - 1) / kTile), static_cast<unsigned>(row_tiles),
                  static_cast<unsigned>(slices));
  reference_batched_gemm_bf16<<<grid, dim3(kTile, kRowsPerPass), 0, stream>>>(A, B, C, batch, M, N, K);
}
