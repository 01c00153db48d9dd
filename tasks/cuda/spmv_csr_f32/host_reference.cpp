#include "arena_signature.h"

// spmv_csr_f32 host reference (fp64 on the CPU, for `arena tasks check`): each row's products
// summed in entry order in double, the sum rounded once to fp32. Duplicate columns add; an empty
// row gives 0.

extern "C" void spmv_csr_f32(const int32_t* row_ptr, const int32_t* col_idx, const float* values, const float* x,
                             float* y, int64_t rows, int64_t cols, int64_t nnz) {
  (void)cols;
  (void)nnz;
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t r = 0; r < rows; ++r) {
    double acc = 0.0;
    for (int64_t k = row_ptr[r]; k < row_ptr[r + 1]; ++k)
      acc += static_cast<double>(values[k]) * static_cast<double>(x[col_idx[k]]);
    y[r] = static_cast<float>(acc);
  }
}
