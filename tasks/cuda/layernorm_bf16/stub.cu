#include "arena_signature.h"

// layernorm_bf16, spec2cuda: write this kernel from the task's README (y = (x - mean) / sqrt(var +
// eps) * w + b per row; the README gives the exact math, layouts and tolerances). This stub only
// compiles: it leaves the outputs unwritten, so every shape fails until you implement it. Enqueue
// all work on `stream`.

extern "C" void layernorm_bf16(const __nv_bfloat16* x, const __nv_bfloat16* w, const __nv_bfloat16* b, __nv_bfloat16* y, int64_t rows, int64_t cols, float eps, cudaStream_t stream) {
  (void)x;
  (void)w;
  (void)b;
  (void)y;
  (void)rows;
  (void)cols;
  (void)eps;
  (void)stream;
}
