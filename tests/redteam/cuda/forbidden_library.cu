// Broken on purpose: calls cuBLAS, which the task does not allow. Expected: forbidden_library.
#include "arena_signature.h"
extern "C" int cublasCreate_v2(void** handle);
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  void* handle = nullptr;
  cublasCreate_v2(&handle);
  cudaMemcpyAsync(out, a, static_cast<size_t>(n) * sizeof(float), cudaMemcpyDeviceToDevice, stream);
  (void)b;
}
