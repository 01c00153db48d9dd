#include "arena_signature.h"

// vector_add_f32 expert: cuBLAS (cublasSgeam, out = 1·a + 1·b over n x 1 column-major
// matrices), the vendor's answer that `arena eval --baseline expert` times solutions against
// ("fraction of expert"). Solutions may not link cuBLAS; the task's own files may
// (expert_libraries).
//
// A dense vector of n floats is an n x 1 column-major matrix with leading dimension n, so
// geam with op = N for both operands is the elementwise sum. cuBLAS takes int dimensions: the
// task's n is at most 2^28, one call, but a larger n would be split into chunks of at most
// kChunk elements (a multiple of 32, so every chunk after the first starts as aligned as the
// first). out does not overlap a or b, so the call is out-of-place. The handle and its workspace
// are made when the library loads, so the entry point only enqueues work on `stream` (creating a
// handle inside it could synchronize).

#include <cublas_v2.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace {

constexpr size_t kWorkspaceBytes = size_t{64} << 20;
constexpr int64_t kChunk = int64_t{1} << 30;  // <= INT_MAX

struct Cublas {
  cublasHandle_t handle = nullptr;
  void* workspace = nullptr;
  Cublas() {
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS || cudaMalloc(&workspace, kWorkspaceBytes) != cudaSuccess ||
        cublasSetWorkspace(handle, workspace, kWorkspaceBytes) != CUBLAS_STATUS_SUCCESS) {
      std::fprintf(stderr, "vector_add_f32 expert: cuBLAS setup failed\n");
      std::abort();
    }
  }
};

Cublas& cublas() {
  static Cublas c;
  return c;
}

// Runs at load time, before the judge holds any stream.
__attribute__((constructor)) void make_handle_at_load() { cublas(); }

}  // namespace

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  cublasHandle_t h = cublas().handle;
  cublasSetStream(h, stream);
  cublasSetWorkspace(h, cublas().workspace, kWorkspaceBytes);  // setting the stream resets it
  const float alpha = 1.0f, beta = 1.0f;
  // geam over one n x 1 column runs on few threads (measured on the H200: 3 ms for n = 2^26, 13x
  // slower than the naive starter): view the bulk as a kRows x cols column-major matrix, whose
  // columns geam spreads over the device, and add the last n % kRows elements as one more column.
  constexpr int64_t kRows = 4096;
  const int64_t cols = n / kRows, bulk = cols * kRows;
  for (int64_t c0 = 0; c0 < cols; c0 += kChunk / kRows) {
    const int c = static_cast<int>(std::min(kChunk / kRows, cols - c0));
    const int64_t at = c0 * kRows;
    cublasSgeam(h, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(kRows), c, &alpha, a + at, kRows, &beta, b + at, kRows,
                out + at, kRows);
  }
  if (const int tail = static_cast<int>(n - bulk); tail > 0)
    cublasSgeam(h, CUBLAS_OP_N, CUBLAS_OP_N, tail, 1, &alpha, a + bulk, tail, &beta, b + bulk, tail, out + bulk, tail);
}
