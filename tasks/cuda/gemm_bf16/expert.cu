#include "arena_signature.h"

// gemm_bf16 expert: cuBLAS (cublasGemmEx, bf16 in and out, fp32 compute), the vendor's answer
// that `arena eval --baseline expert` times solutions against ("fraction of expert"). Solutions
// may not link cuBLAS; the task's own files may (expert_libraries).
//
// Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: cuBLAS gets B first, with the roles of M and N
// swapped. The handle and its workspace are made when the library loads, so the entry point
// only enqueues work on `stream` (creating a handle inside it could synchronize).

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
        cublasSetWorkspace(handle, workspace, kWorkspaceBytes) != CUBLAS_STATUS_SUCCESS) {
      std::fprintf(stderr, "gemm_bf16 expert: cuBLAS setup failed\n");
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

extern "C" void gemm_bf16(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int64_t M, int64_t N,
                          int64_t K, cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;
  cublasHandle_t h = cublas().handle;
  cublasSetStream(h, stream);
  cublasSetWorkspace(h, cublas().workspace, kWorkspaceBytes);  // setting the stream resets it
  const float alpha = 1.0f, beta = 0.0f;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(N), static_cast<int>(M), static_cast<int>(K), &alpha, B,
               CUDA_R_16BF, static_cast<int>(N), A, CUDA_R_16BF, static_cast<int>(K), &beta, C, CUDA_R_16BF,
               static_cast<int>(N), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}
