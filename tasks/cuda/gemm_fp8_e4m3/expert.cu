#include "arena_signature.h"

// gemm_fp8_e4m3 expert: cuBLASLt's fp8 matmul (fp8-e4m3 A and B, bf16 D, fp32 compute and
// scale type, per-tensor scales through A_SCALE_POINTER / B_SCALE_POINTER), the vendor's answer
// that `arena eval --baseline expert` times solutions against ("fraction of expert"), as
// torch._scaled_mm calls it. Solutions may not link cuBLAS; the task's own files may
// (expert_libraries: cublas links -lcublas -lcublasLt).
//
// Layout: row-major out [M, N] is the column-major N×M matrix X with X = Bᵀ_cm·A_cm, where the
// row-major [N, K] B is the column-major K×N matrix B_cm and the row-major [M, K] A the
// column-major K×M matrix A_cm (both with leading dimension K). So cuBLASLt computes
// m = N, n = M, k = K with its "A" = our B transposed and its "B" = our A not transposed: the
// "TN" form its fp8 kernels require. Its A scale is therefore our scale_b and its B scale our
// scale_a (the product is the same either way).
//
// Accuracy: FAST_ACCUM is left at its default (off), so cuBLASLt periodically promotes the
// tensor cores' limited-precision fp8 partial sums into fp32; the task's tolerance is set for
// that.
//
// Requirements: cuBLASLt's fp8 kernels need K and the leading dimensions to be multiples of 16
// (the rows 16-byte aligned, as torch._scaled_mm checks: K % 16 and N % 16) and 16-byte
// aligned pointers. For a shape that does not meet them, or if cuBLASLt finds no algorithm or
// refuses the call, this expert falls back to its own simple kernel (shared-memory tiles, fp32
// accumulation, no tensor cores) for that call, so --baseline expert times that kernel on such
// shapes (e.g. 333×257×129), not cuBLAS.
//
// The handle and workspace are made when the library loads; the descriptors and the chosen
// algorithm are cached per shape (all host-side work), so a call only enqueues work on `stream`.

#include <cublasLt.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <tuple>

namespace {

constexpr size_t kWorkspaceBytes = size_t{64} << 20;

struct Lt {
  cublasLtHandle_t handle = nullptr;
  void* workspace = nullptr;
  Lt() {
    if (cublasLtCreate(&handle) != CUBLAS_STATUS_SUCCESS || cudaMalloc(&workspace, kWorkspaceBytes) != cudaSuccess) {
      std::fprintf(stderr, "gemm_fp8_e4m3 expert: cuBLASLt setup failed\n");
      std::abort();
    }
  }
};

Lt& lt() {
  static Lt l;
  return l;
}

// Runs at load time, before the judge holds any stream.
__attribute__((constructor)) void make_handle_at_load() { lt(); }

// One shape's descriptors and algorithm; ok = false when cuBLASLt has none (use the fallback).
struct Plan {
  bool ok = false;
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr, d = nullptr;
  cublasLtMatmulAlgo_t algo{};
};

Plan make_plan(int64_t M, int64_t N, int64_t K) {
  Plan p;
  const cublasOperation_t transa = CUBLAS_OP_T, transb = CUBLAS_OP_N;
  if (cublasLtMatmulDescCreate(&p.desc, CUBLAS_COMPUTE_32F, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return p;
  cublasLtMatmulDescSetAttribute(p.desc, CUBLASLT_MATMUL_DESC_TRANSA, &transa, sizeof(transa));
  cublasLtMatmulDescSetAttribute(p.desc, CUBLASLT_MATMUL_DESC_TRANSB, &transb, sizeof(transb));
  // cuBLASLt's A: our B, stored K×N column-major (ld K), used transposed. Its B: our A, K×M (ld K).
  // C and D: out, N×M column-major (ld N); C is unused (beta = 0) but must be bf16 like D.
  if (cublasLtMatrixLayoutCreate(&p.a, CUDA_R_8F_E4M3, K, N, K) != CUBLAS_STATUS_SUCCESS ||
      cublasLtMatrixLayoutCreate(&p.b, CUDA_R_8F_E4M3, K, M, K) != CUBLAS_STATUS_SUCCESS ||
      cublasLtMatrixLayoutCreate(&p.c, CUDA_R_16BF, N, M, N) != CUBLAS_STATUS_SUCCESS ||
      cublasLtMatrixLayoutCreate(&p.d, CUDA_R_16BF, N, M, N) != CUBLAS_STATUS_SUCCESS)
    return p;
  // The scale pointers are device pointers that may change from call to call: they are set on
  // the descriptor before every matmul (the heuristic does not dereference them).

  cublasLtMatmulPreference_t pref = nullptr;
  if (cublasLtMatmulPreferenceCreate(&pref) != CUBLAS_STATUS_SUCCESS) return p;
  const size_t ws = kWorkspaceBytes;
  cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws));
  cublasLtMatmulHeuristicResult_t result{};
  int found = 0;
  if (cublasLtMatmulAlgoGetHeuristic(lt().handle, p.desc, p.a, p.b, p.c, p.d, pref, 1, &result, &found) ==
          CUBLAS_STATUS_SUCCESS &&
      found > 0 && result.state == CUBLAS_STATUS_SUCCESS) {
    p.algo = result.algo;
    p.ok = true;
  }
  cublasLtMatmulPreferenceDestroy(pref);
  return p;
}

Plan& plan_for(int64_t M, int64_t N, int64_t K) {
  static std::map<std::tuple<int64_t, int64_t, int64_t>, Plan> plans;  // the judge calls from one thread
  auto key = std::make_tuple(M, N, K);
  auto it = plans.find(key);
  if (it == plans.end()) it = plans.emplace(key, make_plan(M, N, K)).first;
  return it->second;
}

// The fallback: 32×32 tiles of A and B (both K-contiguous) through shared memory as fp32
// (exact for fp8), fp32 accumulation, each thread four elements of out.
constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;

__global__ void __launch_bounds__(kTile * kRowsPerPass)
fallback_gemm_fp8(const __nv_fp8_e4m3* __restrict__ A, const __nv_fp8_e4m3* __restrict__ B,
                  const float* __restrict__ scale_a, const float* __restrict__ scale_b, __nv_bfloat16* __restrict__ out,
                  int64_t M, int64_t N, int64_t K) {
  __shared__ float As[kTile][kTile + 1];
  __shared__ float Bs[kTile][kTile + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t col0 = static_cast<int64_t>(blockIdx.x) * kTile;
  const float scale = *scale_a * *scale_b;
  for (int64_t row0 = static_cast<int64_t>(blockIdx.y) * kTile; row0 < M; row0 += static_cast<int64_t>(gridDim.y) * kTile) {
    float acc[kTile / kRowsPerPass] = {};
    for (int64_t k0 = 0; k0 < K; k0 += kTile) {
      for (int r = ty; r < kTile; r += kRowsPerPass) {
        const int64_t k = k0 + tx, ar = row0 + r, bc = col0 + r;
        As[r][tx] = (ar < M && k < K) ? static_cast<float>(A[ar * K + k]) : 0.0f;
        Bs[r][tx] = (bc < N && k < K) ? static_cast<float>(B[bc * K + k]) : 0.0f;
      }
      __syncthreads();
      for (int kk = 0; kk < kTile; ++kk) {
        const float b = Bs[tx][kk];
        for (int q = 0; q < kTile / kRowsPerPass; ++q) acc[q] = fmaf(As[ty + q * kRowsPerPass][kk], b, acc[q]);
      }
      __syncthreads();
    }
    for (int q = 0; q < kTile / kRowsPerPass; ++q) {
      const int64_t r = row0 + ty + q * kRowsPerPass, c = col0 + tx;
      if (r < M && c < N) out[r * N + c] = __float2bfloat16_rn(acc[q] * scale);
    }
  }
}

bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15) == 0; }

}  // namespace

extern "C" void gemm_fp8_e4m3(const __nv_fp8_e4m3* A, const __nv_fp8_e4m3* B, const float* scale_a,
                              const float* scale_b, __nv_bfloat16* out, int64_t M, int64_t N, int64_t K,
                              cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;
  const bool lt_shape = K % 16 == 0 && N % 16 == 0 && aligned16(A) && aligned16(B) && aligned16(out);
  if (lt_shape) {
    Plan& p = plan_for(M, N, K);
    if (p.ok) {
      // cuBLASLt's A is our B, so its A scale is scale_b (see the top of the file).
      cublasLtMatmulDescSetAttribute(p.desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &scale_b, sizeof(scale_b));
      cublasLtMatmulDescSetAttribute(p.desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &scale_a, sizeof(scale_a));
      const float alpha = 1.0f, beta = 0.0f;
      if (cublasLtMatmul(lt().handle, p.desc, &alpha, B, p.a, A, p.b, &beta, out, p.c, out, p.d, &p.algo,
                         lt().workspace, kWorkspaceBytes, stream) == CUBLAS_STATUS_SUCCESS)
        return;
    }
  }
  int64_t row_tiles = (M + kTile - 1) / kTile;
  if (row_tiles > 65535) row_tiles = 65535;
  const dim3 grid(static_cast<unsigned>((N + kTile - 1) / kTile), static_cast<unsigned>(row_tiles));
  fallback_gemm_fp8<<<grid, dim3(kTile, kRowsPerPass), 0, stream>>>(A, B, scale_a, scale_b, out, M, N, K);
}
