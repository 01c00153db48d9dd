// arena-calibrate: what the device really does, against the peak table's data-sheet rates.
//
//   arena-calibrate [device]     prints key=value lines (`arena device --calibrate` runs it)
//
// Measures, best of several runs after a warm-up, timed with CUDA events:
//   - copy bandwidth over buffers far larger than the L2 (up to 2 GiB each), once as a
//     device-to-device cudaMemcpy and once as a read+write kernel; bytes read + written;
//   - dense GEMM rates with cuBLAS at 8192³: bf16 inputs and output with fp32 accumulation
//     (cublasGemmEx, CUBLAS_COMPUTE_32F), fp32 with TF32 tensor cores, and plain fp32 SGEMM.
// An error is one `error=` line and exit code 1.

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

[[noreturn]] void die(const std::string& what) {
  std::printf("error=%s\n", what.c_str());
  std::exit(1);
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) die(std::string(what) + ": " + cudaGetErrorString(e));
}

void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) die(std::string(what) + ": cuBLAS status " + std::to_string(static_cast<int>(s)));
}

// A read+write kernel: 16-byte loads and stores, grid-stride.
__global__ void copy_kernel(const int4* __restrict__ in, int4* __restrict__ out, size_t n) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

// Values in [-1, 1) from the index, so GEMMs run on non-trivial data (zeros draw less power).
__global__ void fill_float(float* p, size_t n) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    uint32_t h = static_cast<uint32_t>(i) * 2654435761u;
    h ^= h >> 15;
    p[i] = static_cast<float>(h & 0xffff) / 32768.0f - 1.0f;
  }
}

__global__ void to_bf16(const float* in, __nv_bfloat16* out, size_t n) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    out[i] = __float2bfloat16(in[i]);
}

// The least time of `runs` timed batches of `per_batch` calls each, per call, in seconds.
template <typename F>
double best_seconds(F&& call, int warmup, int runs, int per_batch) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  for (int i = 0; i < warmup; ++i) call();
  check(cudaDeviceSynchronize(), "warm-up");
  float best_ms = 1e30f;
  for (int r = 0; r < runs; ++r) {
    check(cudaEventRecord(start), "cudaEventRecord");
    for (int i = 0; i < per_batch; ++i) call();
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "timed run");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    best_ms = std::min(best_ms, ms / per_batch);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return best_ms * 1e-3;
}

}  // namespace

int main(int argc, char** argv) {
  int device = argc >= 2 ? std::atoi(argv[1]) : 0;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) die("no CUDA device is visible");
  if (device < 0 || device >= count) die("device " + std::to_string(device) + " does not exist");
  check(cudaSetDevice(device), "cudaSetDevice");
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties");
  std::printf("name=%s\n", p.name);
  std::fflush(stdout);

  // Copy bandwidth: two buffers of up to 2 GiB each (a quarter of free memory at most), read
  // one and write the other, 4 GiB of traffic per copy on a large GPU.
  size_t free_bytes = 0, total_bytes = 0;
  check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  size_t bytes = std::min<size_t>(size_t{2} << 30, free_bytes / 4) & ~size_t{0xffff};
  if (bytes < (size_t{64} << 20)) die("too little free device memory to measure bandwidth");
  void *a = nullptr, *b = nullptr;
  check(cudaMalloc(&a, bytes), "cudaMalloc");
  check(cudaMalloc(&b, bytes), "cudaMalloc");
  check(cudaMemset(a, 1, bytes), "cudaMemset");
  check(cudaMemset(b, 0, bytes), "cudaMemset");
  double memcpy_s = best_seconds(
      [&] { check(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpyAsync"); }, 2, 10, 1);
  check(cudaGetLastError(), "cudaMemcpyAsync");
  size_t n16 = bytes / 16;
  int blocks = p.multiProcessorCount * 8;
  double kernel_s = best_seconds(
      [&] { copy_kernel<<<blocks, 512>>>(static_cast<const int4*>(a), static_cast<int4*>(b), n16); }, 2, 10, 1);
  check(cudaGetLastError(), "copy kernel");
  double memcpy_gbs = 2.0 * bytes / memcpy_s * 1e-9;
  double kernel_gbs = 2.0 * bytes / kernel_s * 1e-9;
  std::printf("copy_buffer_bytes=%zu\n", bytes);
  std::printf("memcpy_gbytes_per_s=%.1f\n", memcpy_gbs);
  std::printf("copy_kernel_gbytes_per_s=%.1f\n", kernel_gbs);
  std::printf("memory_gbytes_per_s=%.1f\n", std::max(memcpy_gbs, kernel_gbs));
  std::fflush(stdout);
  check(cudaFree(a), "cudaFree");
  check(cudaFree(b), "cudaFree");

  // GEMMs at 8192³ (square, column-major, no transposes).
  const int n = 8192;
  const size_t elems = static_cast<size_t>(n) * n;
  const double flops = 2.0 * n * static_cast<double>(n) * n;
  float *fa = nullptr, *fb = nullptr, *fc = nullptr;
  __nv_bfloat16 *ha = nullptr, *hb = nullptr, *hc = nullptr;
  check(cudaMalloc(&fa, elems * sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&fb, elems * sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&fc, elems * sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&ha, elems * sizeof(__nv_bfloat16)), "cudaMalloc");
  check(cudaMalloc(&hb, elems * sizeof(__nv_bfloat16)), "cudaMalloc");
  check(cudaMalloc(&hc, elems * sizeof(__nv_bfloat16)), "cudaMalloc");
  fill_float<<<blocks, 256>>>(fa, elems);
  fill_float<<<blocks, 256>>>(fb, elems);
  to_bf16<<<blocks, 256>>>(fa, ha, elems);
  to_bf16<<<blocks, 256>>>(fb, hb, elems);
  check(cudaDeviceSynchronize(), "filling the matrices");

  cublasHandle_t h = nullptr;
  check(cublasCreate(&h), "cublasCreate");
  const float one = 1.0f, zero = 0.0f;

  check(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  double bf16_s = best_seconds(
      [&] {
        check(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, ha, CUDA_R_16BF, n, hb, CUDA_R_16BF, n, &zero,
                           hc, CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
              "cublasGemmEx (bf16)");
      },
      5, 10, 5);
  check(cudaGetLastError(), "bf16 GEMM");
  std::printf("gemm_n=%d\n", n);
  std::printf("bf16_tflops=%.1f\n", flops / bf16_s * 1e-12);
  std::fflush(stdout);

  double tf32_s = best_seconds(
      [&] {
        check(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, fa, CUDA_R_32F, n, fb, CUDA_R_32F, n, &zero, fc,
                           CUDA_R_32F, n, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT),
              "cublasGemmEx (tf32)");
      },
      3, 6, 3);
  check(cudaGetLastError(), "tf32 GEMM");
  std::printf("tf32_tflops=%.1f\n", flops / tf32_s * 1e-12);
  std::fflush(stdout);

  // Plain fp32 on the CUDA cores: the default math mode never lowers fp32 to TF32.
  double fp32_s = best_seconds(
      [&] { check(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, fa, n, fb, n, &zero, fc, n), "cublasSgemm"); },
      1, 4, 1);
  check(cudaGetLastError(), "SGEMM");
  std::printf("fp32_tflops=%.1f\n", flops / fp32_s * 1e-12);

  check(cudaDeviceSynchronize(), "GEMMs");
  cublasDestroy(h);
  for (void* q : {static_cast<void*>(fa), static_cast<void*>(fb), static_cast<void*>(fc), static_cast<void*>(ha),
                  static_cast<void*>(hb), static_cast<void*>(hc)})
    cudaFree(q);
  return 0;
}
