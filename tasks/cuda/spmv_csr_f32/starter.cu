#include "arena_signature.h"

// spmv_csr_f32 starter: one thread per row. Each thread walks its row's entries in order, loads
// the column index, the value and x[col] with scalar loads, and sums the products in fp32. A
// warp's 32 threads read 32 different rows, so the loads of col_idx and values are scattered
// (uncoalesced), and a warp waits for its longest row. Correct for every shape; make it faster.

// Threads per block: a knob for `arena run --agent autotune` (every candidate is correct).
constexpr int kThreads = 256;  // arena-knob: 64 128 256 512 1024

__global__ void spmv_row_per_thread_kernel(const int32_t* row_ptr, const int32_t* col_idx, const float* values,
                                           const float* x, float* y, int64_t rows) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t r = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; r < rows; r += stride) {
    float acc = 0.0f;
    for (int32_t k = row_ptr[r]; k < row_ptr[r + 1]; ++k) acc += values[k] * x[col_idx[k]];
    y[r] = acc;
  }
}

extern "C" void spmv_csr_f32(const int32_t* row_ptr, const int32_t* col_idx, const float* values, const float* x,
                             float* y, int64_t rows, int64_t cols, int64_t nnz, cudaStream_t stream) {
  (void)cols;
  (void)nnz;
  if (rows <= 0) return;
  int64_t blocks = (rows + kThreads - 1) / kThreads;
  if (blocks > 65535 * 16) blocks = 65535 * 16;  // the grid-stride loop covers the rest
  spmv_row_per_thread_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(row_ptr, col_idx, values, x, y,
                                                                                     rows);
}
