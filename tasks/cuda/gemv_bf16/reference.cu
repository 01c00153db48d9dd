#include "arena_signature.h"

// gemv_bf16 reference: one warp per row of A. Every product and the whole dot product in double
// (exact products of bf16 values, fp64 sums), the result narrowed to fp32 and rounded once to
// bf16 (nearest even), as the CPU reference does.

#include <math.h>

__global__ void reference_gemv_bf16(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ x,
                                    __nv_bfloat16* __restrict__ y, int64_t M, int64_t K) {
  const int64_t row = static_cast<int64_t>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= M) return;  // whole warps leave together
  const __nv_bfloat16* ar = A + row * K;

  double acc = 0.0;
  for (int64_t k = lane; k < K; k += 32)
    acc = fma(static_cast<double>(__bfloat162float(ar[k])), static_cast<double>(__bfloat162float(x[k])), acc);
  for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
  if (lane == 0) y[row] = __float2bfloat16_rn(static_cast<float>(acc));
}

extern "C" void gemv_bf16(const __nv_bfloat16* A, const __nv_bfloat16* x, __nv_bfloat16* y, int64_t M, int64_t K,
                          cudaStream_t stream) {
  if (M <= 0) return;
  const int warps = 8;
  const int64_t blocks = (M + warps - 1) / warps;
  reference_gemv_bf16<<<static_cast<unsigned>(blocks), warps * 32, 0, stream>>>(A, x, y, M, K);
}
