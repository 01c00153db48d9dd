// Broken on purpose: calls BLAS, which the task does not allow. Expected: forbidden_library.
#include "arena_signature.h"
extern "C" void cblas_saxpy(int n, float alpha, const float* x, int incx, float* y, int incy);
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = b[i];
  cblas_saxpy(static_cast<int>(n), 1.0f, a, 1, out, 1);
}
