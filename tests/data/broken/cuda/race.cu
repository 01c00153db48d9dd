// Broken on purpose: a shared-memory race that never changes the output. Each thread raises a
// flag in shared memory and peeks at the flag of the thread 32 places away (another warp) with
// no __syncthreads() in between: a read-after-write hazard across warps, which racecheck reports
// as an error. The sums are exact on every run. Expected with --sanitize: sanitizer.
#include "arena_signature.h"

__global__ void add(const float* a, const float* b, float* out, int64_t n) {
  __shared__ int done[256];
  volatile int* flag = done;  // volatile: every access below is a real shared-memory access
  const int t = threadIdx.x;
  flag[t] = 0;
  __syncthreads();
  const int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + t;
  if (i < n) out[i] = a[i] + b[i];
  flag[t] = 1;                    // written by warp w ...
  const int peek = flag[t ^ 32];  // ... read by warp w ^ 1 in the same barrier interval
  (void)peek;
}

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  add<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(a, b, out, n);
}
