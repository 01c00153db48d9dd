#include "arena_signature.h"

// histogram_u8 expert: CUB's cub::DeviceHistogram::HistogramEven (CCCL), 257 levels 0, 1, ...,
// 256 so bin v counts the bytes equal to v; the vendor's answer that `arena eval --baseline
// expert` times solutions against. CUB clears the output bins itself (an init kernel) before
// counting, on `stream`.
//
// Temp storage: the judge holds the stream while timing, so the entry point must neither
// cudaMalloc nor synchronize. CUB's temp storage is a set of per-block privatized bins; its size
// grows with the grid, which CUB caps at what the device keeps resident, so the largest legal n
// (2^30) needs the most. That size is queried and allocated once when the library loads. If a
// call ever asks for more (it should not), the extra comes from cudaMallocAsync on `stream`.

#include <cub/device/device_histogram.cuh>

#include <cstdio>
#include <cstdlib>

namespace {

constexpr int64_t kMaxN = int64_t{1} << 30;  // params.n.max in task.yaml

struct TempStorage {
  void* ptr = nullptr;
  size_t bytes = 0;
  TempStorage() {
    if (cub::DeviceHistogram::HistogramEven(nullptr, bytes, static_cast<const uint8_t*>(nullptr),
                                            static_cast<int32_t*>(nullptr), 257, 0, 256, kMaxN) != cudaSuccess ||
        cudaMalloc(&ptr, bytes > 0 ? bytes : 1) != cudaSuccess) {
      std::fprintf(stderr, "histogram_u8 expert: CUB temp storage setup failed\n");
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

}  // namespace

extern "C" void histogram_u8(const uint8_t* data, int32_t* hist, int64_t n, cudaStream_t stream) {
  if (n <= 0) {
    cudaMemsetAsync(hist, 0, 256 * sizeof(int32_t), stream);
    return;
  }
  size_t bytes = 0;  // a host-side size query: launches nothing
  cub::DeviceHistogram::HistogramEven(nullptr, bytes, data, hist, 257, 0, 256, n, stream);
  void* storage = temp().ptr;
  const bool extra = bytes > temp().bytes;
  if (extra) cudaMallocAsync(&storage, bytes, stream);
  cub::DeviceHistogram::HistogramEven(storage, bytes, data, hist, 257, 0, 256, n, stream);
  if (extra) cudaFreeAsync(storage, stream);
}
