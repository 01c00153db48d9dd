#include "arena_signature.h"

// sgemm_f32 example: cache-blocked GEMM with a register-blocked i-k-j micro-kernel and OpenMP.
//
//  - K and N are cut into blocks (kKB x kNB); each block of B is packed once, by all threads, into
//    column panels of kNR floats ([panel][k][kNR], zero-padded past N) so the micro-kernel streams
//    it contiguously and it stays in L1/L2 while many rows of A pass over it.
//  - Threads split the (row block of A, panel) pairs of C; every C element is owned by one thread.
//  - The micro-kernel keeps a kMR x kNR tile of C in registers and runs the i-k-j order: for each k
//    it broadcasts A[i][k] and does a vector FMA with the packed row of B. g++ -O3 vectorizes the
//    fixed-size inner loops. Row tails (M % kMR) use a smaller instantiation, column tails a masked
//    store; the packed zeros make the tail arithmetic harmless.

#include <algorithm>
#include <vector>

namespace {

#if defined(__AVX512F__)
constexpr int kNR = 32;  // two 16-float vectors per row of the tile
#else
constexpr int kNR = 16;  // two 8-float vectors
#endif
constexpr int kMR = 4;
constexpr int64_t kKB = 256;
constexpr int64_t kNB = 1024;  // a multiple of kNR
constexpr int64_t kMB = 64;    // rows of A per task; a multiple of kMR

// C[0:MR, 0:nr] (+)= A[0:MR, 0:kb] * Bp[0:kb, 0:kNR]; lda and ldc are row strides.
template <int MR>
inline void micro_kernel(const float* __restrict a, int64_t lda, const float* __restrict bp, int64_t kb,
                         float* __restrict c, int64_t ldc, int nr, bool accumulate) {
  float acc[MR][kNR] = {};
  for (int64_t k = 0; k < kb; ++k) {
    const float* b = bp + k * kNR;
    for (int r = 0; r < MR; ++r) {
      const float av = a[r * lda + k];
      for (int j = 0; j < kNR; ++j) acc[r][j] += av * b[j];
    }
  }
  if (nr == kNR) {
    for (int r = 0; r < MR; ++r) {
      float* cr = c + r * ldc;
      if (accumulate)
        for (int j = 0; j < kNR; ++j) cr[j] += acc[r][j];
      else
        for (int j = 0; j < kNR; ++j) cr[j] = acc[r][j];
    }
  } else {
    for (int r = 0; r < MR; ++r) {
      float* cr = c + r * ldc;
      for (int j = 0; j < nr; ++j) cr[j] = accumulate ? cr[j] + acc[r][j] : acc[r][j];
    }
  }
}

}  // namespace

extern "C" void sgemm_f32(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K) {
  if (M <= 0 || N <= 0) return;
  if (K <= 0) {
    for (int64_t i = 0; i < M * N; ++i) C[i] = 0.0f;
    return;
  }
  const int64_t nb_max = std::min(kNB, (N + kNR - 1) / kNR * kNR);
  std::vector<float> packed(static_cast<std::size_t>(std::min(kKB, K) * nb_max));
  float* bp_all = packed.data();
  // Tiny problems are not worth waking the thread team.
  const bool parallel = M * N * K >= (int64_t{1} << 18);

#pragma omp parallel if (parallel)
  for (int64_t kk = 0; kk < K; kk += kKB) {
    const int64_t kb = std::min(kKB, K - kk);
    for (int64_t jj = 0; jj < N; jj += kNB) {
      const int64_t nb = std::min(kNB, N - jj);
      const int64_t panels = (nb + kNR - 1) / kNR;

      // Pack B[kk:kk+kb, jj:jj+nb] into panels [p][k][kNR], zero-padded.
#pragma omp for schedule(static)
      for (int64_t p = 0; p < panels; ++p) {
        const int64_t j0 = jj + p * kNR;
        const int nr = static_cast<int>(std::min<int64_t>(kNR, N - j0));
        float* dst = bp_all + p * kb * kNR;
        for (int64_t k = 0; k < kb; ++k) {
          const float* src = B + (kk + k) * N + j0;
          float* d = dst + k * kNR;
          if (nr == kNR) {
            for (int j = 0; j < kNR; ++j) d[j] = src[j];
          } else {
            for (int j = 0; j < nr; ++j) d[j] = src[j];
            for (int j = nr; j < kNR; ++j) d[j] = 0.0f;
          }
        }
      }  // implicit barrier: the packed block is complete

      const int64_t mblocks = (M + kMB - 1) / kMB;
      const bool accumulate = kk > 0;
#pragma omp for collapse(2) schedule(static)
      for (int64_t mb = 0; mb < mblocks; ++mb) {
        for (int64_t p = 0; p < panels; ++p) {
          const int64_t j0 = jj + p * kNR;
          const int nr = static_cast<int>(std::min<int64_t>(kNR, N - j0));
          const float* bp = bp_all + p * kb * kNR;
          const int64_t i_end = std::min(M, (mb + 1) * kMB);
          int64_t i = mb * kMB;
          for (; i + kMR <= i_end; i += kMR)
            micro_kernel<kMR>(A + i * K + kk, K, bp, kb, C + i * N + j0, N, nr, accumulate);
          switch (i_end - i) {
            case 3: micro_kernel<3>(A + i * K + kk, K, bp, kb, C + i * N + j0, N, nr, accumulate); break;
            case 2: micro_kernel<2>(A + i * K + kk, K, bp, kb, C + i * N + j0, N, nr, accumulate); break;
            case 1: micro_kernel<1>(A + i * K + kk, K, bp, kb, C + i * N + j0, N, nr, accumulate); break;
            default: break;
          }
        }
      }  // implicit barrier: nobody repacks while others still read the block
    }
  }
}
