// Cheats on purpose (side stream, done before the window opens): computes C on a stream of its
// own and waits for it inside the call, then puts a short 20 us spin on the judge's stream. The
// values are right. The judge's events open on its stream only when the hold releases it, so
// with a hold of one thread the whole product ran beside the hold, on the other SMs, while the
// host was still enqueueing: the window saw 20 us (a speedup of ~50x at 1024^3, well above the
// roofline floor of ~2 us) and the device was idle by the time the host started its clock, so
// nothing looked outside the stream. The hold fills every SM (src/backends/cuda/hold_kernel.cuh):
// the product cannot start until the release, the wait inside the call never returns, the hold
// gives up and the call fails. Expected: failure crash ("blocked while the device was held").
#include "arena_signature.h"

namespace {

__global__ void product(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int64_t M, int64_t N,
                        int64_t K) {
  const int64_t j = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t i = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (i >= M || j >= N) return;
  float acc = 0.0f;
  for (int64_t k = 0; k < K; ++k) acc += __bfloat162float(A[i * K + k]) * __bfloat162float(B[k * N + j]);
  C[i * N + j] = __float2bfloat16_rn(acc);
}

// What the judge's window sees: a spin of 20 us on one thread.
__global__ void spin_20us() {
  uint64_t start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < 20000);
}

}  // namespace

extern "C" void gemm_bf16(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int64_t M, int64_t N,
                          int64_t K, cudaStream_t stream) {
  static cudaStream_t own = nullptr;
  if (own == nullptr) cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking);
  if (M > 0 && N > 0) {
    const dim3 block(32, 8);
    const dim3 grid(static_cast<unsigned>((N + 31) / 32), static_cast<unsigned>((M + 7) / 8));
    product<<<grid, block, 0, own>>>(A, B, C, M, N, K);
  }
  cudaStreamSynchronize(own);  // the head start: done before the judge's events can open
  spin_20us<<<1, 1, 0, stream>>>();
}
