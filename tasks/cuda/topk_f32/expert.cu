#include "arena_signature.h"

// topk_f32 expert: CUB (CCCL) sorts every row's (value, column) pairs in descending order with
// cub::DeviceSegmentedRadixSort::SortPairsDescending (one segment per row), and a small kernel
// copies the first k of each row out. A full sort does far more work than a selection, but it is
// the vendor-library answer that `arena eval --baseline expert` times solutions against (CCCL
// 3.0 has no device-wide top-k). Solutions may use CUB too.
//
// Scratch: the column indices, the row offsets, the sorted pairs and CUB's temp storage come
// from one cudaMallocAsync on `stream` per call and go back with cudaFreeAsync on `stream`, so the
// entry point only enqueues work (no cudaMalloc or synchronization while the judge holds the
// stream; both are capturable into a CUDA graph). At load, the default memory pool is told to
// keep freed memory (release threshold: unlimited), so a later call reuses it instead of mapping
// fresh pages each time.

#include <cub/device/device_segmented_radix_sort.cuh>

#include <cstdint>

namespace {

__attribute__((constructor)) void keep_pool_memory_at_load() {
  int device = 0;
  cudaMemPool_t pool = nullptr;
  if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetDefaultMemPool(&pool, device) != cudaSuccess) {
    cudaGetLastError();
    return;  // only an optimization
  }
  uint64_t unlimited = UINT64_MAX;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &unlimited);
}

// col[i] = i % cols: the column of every element, the payload sorted along with the values.
__global__ void fill_columns(int32_t* col, int64_t n, int64_t cols) {
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)
    col[i] = static_cast<int32_t>(i % cols);
}

// offsets[r] = r * cols for r in [0, rows]: row r is the segment [offsets[r], offsets[r + 1]).
__global__ void fill_offsets(int* offsets, int64_t rows, int64_t cols) {
  for (int64_t r = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; r <= rows;
       r += static_cast<int64_t>(gridDim.x) * blockDim.x)
    offsets[r] = static_cast<int>(r * cols);
}

// The first k sorted pairs of every row.
__global__ void take_first_k(const float* sorted_v, const int32_t* sorted_c, float* values, int32_t* indices,
                             int64_t rows, int64_t cols, int64_t k) {
  const int64_t n = rows * k;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t r = i / k, j = i % k;
    values[i] = sorted_v[r * cols + j];
    indices[i] = sorted_c[r * cols + j];
  }
}

size_t align256(size_t bytes) { return (bytes + 255) & ~size_t{255}; }

unsigned grid_for(int64_t n, int threads) {
  const int64_t blocks = (n + threads - 1) / threads;
  return static_cast<unsigned>(blocks < 65536 ? (blocks > 0 ? blocks : 1) : 65536);
}

}  // namespace

extern "C" void topk_f32(const float* x, float* values, int32_t* indices, int64_t rows, int64_t cols, int64_t k,
                         cudaStream_t stream) {
  if (rows <= 0 || k <= 0) return;
  const int64_t n = rows * cols;  // <= 2^28: fits CUB's int item count
  const int num_items = static_cast<int>(n), num_segments = static_cast<int>(rows);

  size_t temp_bytes = 0;  // a size query only: launches nothing
  cub::DeviceSegmentedRadixSort::SortPairsDescending(nullptr, temp_bytes, x, static_cast<float*>(nullptr),
                                                     static_cast<const int32_t*>(nullptr),
                                                     static_cast<int32_t*>(nullptr), num_items, num_segments,
                                                     static_cast<const int*>(nullptr),
                                                     static_cast<const int*>(nullptr), 0, 32, stream);

  const size_t col_bytes = align256(sizeof(int32_t) * static_cast<size_t>(n));
  const size_t off_bytes = align256(sizeof(int) * static_cast<size_t>(rows + 1));
  const size_t key_bytes = align256(sizeof(float) * static_cast<size_t>(n));
  char* scratch = nullptr;
  if (cudaMallocAsync(reinterpret_cast<void**>(&scratch), 2 * col_bytes + off_bytes + key_bytes + temp_bytes,
                      stream) != cudaSuccess)
    return;  // out of memory: the judge sees the outputs unwritten
  int32_t* col_in = reinterpret_cast<int32_t*>(scratch);
  int32_t* col_out = reinterpret_cast<int32_t*>(scratch + col_bytes);
  int* offsets = reinterpret_cast<int*>(scratch + 2 * col_bytes);
  float* sorted = reinterpret_cast<float*>(scratch + 2 * col_bytes + off_bytes);
  void* temp = scratch + 2 * col_bytes + off_bytes + key_bytes;

  fill_columns<<<grid_for(n, 256), 256, 0, stream>>>(col_in, n, cols);
  fill_offsets<<<grid_for(rows + 1, 256), 256, 0, stream>>>(offsets, rows, cols);
  cub::DeviceSegmentedRadixSort::SortPairsDescending(temp, temp_bytes, x, sorted, col_in, col_out, num_items,
                                                     num_segments, offsets, offsets + 1, 0, 32, stream);
  take_first_k<<<grid_for(rows * k, 256), 256, 0, stream>>>(sorted, col_out, values, indices, rows, cols, k);
  cudaFreeAsync(scratch, stream);
}
