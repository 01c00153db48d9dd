#include "arena_signature.h"

// prefix_sum_i32 expert: CUB's cub::DeviceScan::InclusiveSum (CCCL), a single-pass decoupled
// look-back scan; the vendor's answer that `arena eval --baseline expert` times solutions
// against ("fraction of expert"). The task's inputs lie in [-7, 7] and n <= 2^28, so every
// prefix fits an int32 (|prefix| <= 1.88e9 < 2^31) and CUB's int32 accumulator is exact.
//
// num_items is passed as an int: n <= 2^28 by the task's bounds, and a 32-bit count makes CUB
// use 32-bit offsets (an int64 count would select 64-bit ones). A larger n (illegal here) would
// take the int64 path.
//
// Temp storage: the judge holds the stream while timing, so the entry point must neither
// cudaMalloc nor synchronize. CUB's temp storage holds the look-back tile states; its size grows
// with the number of tiles, so the largest legal n (2^28) needs the most. That size is queried
// and allocated once when the library loads. If a call ever asks for more (it should not), the
// extra comes from cudaMallocAsync on `stream`.

#include <cub/device/device_scan.cuh>

#include <climits>
#include <cstdio>
#include <cstdlib>

namespace {

constexpr int kMaxN = 1 << 28;  // params.n.max in task.yaml

struct TempStorage {
  void* ptr = nullptr;
  size_t bytes = 0;
  TempStorage() {
    if (cub::DeviceScan::InclusiveSum(nullptr, bytes, static_cast<const int32_t*>(nullptr),
                                      static_cast<int32_t*>(nullptr), kMaxN) != cudaSuccess ||
        cudaMalloc(&ptr, bytes > 0 ? bytes : 1) != cudaSuccess) {
      std::fprintf(stderr, "prefix_sum_i32 expert: CUB temp storage setup failed\n");
      std::abort();
    }
  }
};

TempStorage& temp() {
  static TempStorage t;
  return t;
}

// Runs at load time, before the judge holds any stream.
__attribute__((constructor)) void allocate_at_load() { temp(); }

template <typename NumItemsT>
void scan(const int32_t* in, int32_t* out, NumItemsT n, cudaStream_t stream) {
  size_t bytes = 0;  // a host-side size query: launches nothing
  cub::DeviceScan::InclusiveSum(nullptr, bytes, in, out, n, stream);
  void* storage = temp().ptr;
  const bool extra = bytes > temp().bytes;
  if (extra) cudaMallocAsync(&storage, bytes, stream);
  cub::DeviceScan::InclusiveSum(storage, bytes, in, out, n, stream);
  if (extra) cudaFreeAsync(storage, stream);
}

}  // namespace

extern "C" void prefix_sum_i32(const int32_t* in, int32_t* out, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  if (n <= INT_MAX) {
    scan(in, out, static_cast<int>(n), stream);
  } else {
    scan(in, out, n, stream);
  }
}
