#include "arena_signature.h"

// gelu_bf16 reference: 0.5 · x · (1 + erf(x / sqrt(2))) in double, narrowed to fp32 and rounded
// once to bf16 (nearest even), as the CPU host reference does. A capped grid with a grid-stride
// loop covers any n.

#include <math.h>

__global__ void reference_gelu(const __nv_bfloat16* __restrict__ x, __nv_bfloat16* __restrict__ out, int64_t n) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const double v = static_cast<double>(__bfloat162float(x[i]));
    const double g = 0.5 * v * (1.0 + erf(v / sqrt(2.0)));
    out[i] = __float2bfloat16_rn(static_cast<float>(g));
  }
}

extern "C" void gelu_bf16(const __nv_bfloat16* x, __nv_bfloat16* out, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 256;
  int64_t blocks = (n + threads - 1) / threads;
  if (blocks > 16384) blocks = 16384;
  reference_gelu<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(x, out, n);
}
