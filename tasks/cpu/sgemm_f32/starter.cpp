#include "arena_signature.h"

// sgemm_f32 starter: C = A * B with the textbook i-j-k loops, one fp32 accumulator per output
// element summed over k in order, single-threaded. Correct for every shape; make it faster.
//
// Knobs (for `arena run --agent autotune`, which tries them in this order): each step of k may
// update a block of ROW_BLOCK x COL_BLOCK elements of C, one accumulator each, so that an element
// of A and a row of B are loaded once for the block. Every element is still summed over k in the
// same order; the default 1 x 1 is the plain loop.
#define COL_BLOCK 1  // arena-knob: 1 4 8 16 32
#define ROW_BLOCK 1  // arena-knob: 1 2 4

// C[i0 .. i0 + R, j0 .. j0 + Cn) = A[i0 .. i0 + R, :] * B[:, j0 .. j0 + Cn).
template <int R, int Cn>
static void sgemm_block(const float* A, const float* B, float* C, int64_t N, int64_t K, int64_t i0,
                        int64_t j0) {
  float acc[R][Cn] = {};
  for (int64_t k = 0; k < K; ++k)
    for (int r = 0; r < R; ++r) {
      const float a = A[(i0 + r) * K + k];
      for (int c = 0; c < Cn; ++c) acc[r][c] += a * B[k * N + j0 + c];
    }
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < Cn; ++c) C[(i0 + r) * N + j0 + c] = acc[r][c];
}

extern "C" void sgemm_f32(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K) {
  const int64_t m_blocked = M - M % ROW_BLOCK, n_blocked = N - N % COL_BLOCK;
  for (int64_t i = 0; i < m_blocked; i += ROW_BLOCK) {
    for (int64_t j = 0; j < n_blocked; j += COL_BLOCK)
      sgemm_block<ROW_BLOCK, COL_BLOCK>(A, B, C, N, K, i, j);
    for (int64_t r = i; r < i + ROW_BLOCK; ++r)  // the columns past the last whole block
      for (int64_t j = n_blocked; j < N; ++j) sgemm_block<1, 1>(A, B, C, N, K, r, j);
  }
  for (int64_t i = m_blocked; i < M; ++i)  // the rows past the last whole block
    for (int64_t j = 0; j < N; ++j) sgemm_block<1, 1>(A, B, C, N, K, i, j);
}
