#include "arena_signature.h"

// sgemm_f32 expert: cuBLAS (cublasSgemm, fp32 in, out and compute), the vendor's answer that
// `arena eval --baseline expert` times solutions against ("fraction of expert"). Solutions may
// not link cuBLAS; the task's own files may (expert_libraries).
//
// Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: cuBLAS gets B first, with the roles of M and N
// swapped. The handle is pinned to CUBLAS_DEFAULT_MATH (the default since CUDA 11, set
// explicitly so it cannot drift): CUBLAS_TF32_TENSOR_OP_MATH would round the operands to TF32's
// 10-bit mantissa, ~1e-3 relative per product, and fail this task's fp32 tolerance
// (1e-5·sqrt(K)). The handle and its workspace are made when the library loads, so the entry
// point only enqueues work on `stream` (creating a handle inside it could synchronize).

#include <cublas_v2.h>

#include <cstdio>
#include <cstdlib>

namespace {

constexpr size_t kWorkspaceBytes = size_t{64} << 20;

struct Cublas {
  cublasHandle_t handle = nullptr;
  void* workspace = nullptr;
  Cublas() {
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS || cudaMalloc(&workspace, kWorkspaceBytes) != cudaSuccess ||
        cublasSetWorkspace(handle, workspace, kWorkspaceBytes) != CUBLAS_STATUS_SUCCESS ||
        cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH) != CUBLAS_STATUS_SUCCESS) {  // no TF32: see above
      std::fprintf(stderr, "sgemm_f32 expert: cuBLAS setup failed\n");
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

extern "C" void sgemm_f32(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K,
                          cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;
  cublasHandle_t h = cublas().handle;
  cublasSetStream(h, stream);
  cublasSetWorkspace(h, cublas().workspace, kWorkspaceBytes);  // setting the stream resets it
  const float alpha = 1.0f, beta = 0.0f;
  // Cᵀ (N x M, ld N) = Bᵀ (N x K, ld N) · Aᵀ (K x M, ld K): every dim <= 16384 fits an int.
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(N), static_cast<int>(M), static_cast<int>(K), &alpha, B,
              static_cast<int>(N), A, static_cast<int>(K), &beta, C, static_cast<int>(N));
}
