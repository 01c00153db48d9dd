#include "arena_signature.h"

// Trap (a grid computed for one size): the launch is sized once, for the largest visible n
// (67108864 = 2^26), with a bounds check but no grid-stride loop. Every visible n is at most
// that, so every element is written; a held-out n above it leaves everything past 2^26
// unwritten. Expected: grid_coverage (most of the output unwritten), or boundary_tiles where
// n is just past 2^26 and only a tail of less than one block is left (n = 67108879: 15).

constexpr int kThreads = 256;
constexpr unsigned kBlocks = (67108864 + kThreads - 1) / kThreads;  // tuned on the biggest shape seen

__global__ void add_kernel(const float* a, const float* b, float* out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  add_kernel<<<kBlocks, kThreads, 0, stream>>>(a, b, out, n);
}
