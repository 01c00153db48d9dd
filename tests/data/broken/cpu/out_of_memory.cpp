// Broken on purpose: asks for far more memory than the runner may have. Expected: oom.
#include <vector>
#include "arena_signature.h"
extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  std::vector<float*> hoard;
  for (int k = 0; k < 1024; ++k) hoard.push_back(new float[size_t{1} << 28]);  // 1 GiB each, untouched
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i] + static_cast<float>(hoard.size() - 1024);
}
