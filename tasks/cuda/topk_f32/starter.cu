#include "arena_signature.h"

// topk_f32 starter: one thread per row. The thread keeps the k largest values seen so far as a
// min-heap (smallest at the root) stored in the row's own output slots: the first k columns
// build it, every later column larger than the root replaces the root, and a final heapsort
// (the minimum moved to the end, k times) leaves the row's values in descending order. Scalar
// loads, O(cols + k·log k·log(cols / k)) per row on random inputs. Correct for every shape; make
// it faster.

#include <stdint.h>

// Threads (rows) per block: a knob for `arena run --agent autotune` (every candidate is correct).
constexpr int kThreads = 128;  // arena-knob: 32 64 128 256 512

// Moves (v, id) down from slot i of the n-slot min-heap hv / hi until both children are larger.
__device__ void sift_down(float* hv, int32_t* hi, int64_t n, int64_t i, float v, int32_t id) {
  for (;;) {
    const int64_t l = 2 * i + 1;
    if (l >= n) break;
    const int64_t m = (l + 1 < n && hv[l + 1] < hv[l]) ? l + 1 : l;  // the smaller child
    if (hv[m] >= v) break;
    hv[i] = hv[m];
    hi[i] = hi[m];
    i = m;
  }
  hv[i] = v;
  hi[i] = id;
}

__global__ void topk_row_kernel(const float* x, float* values, int32_t* indices, int64_t rows, int64_t cols,
                                int64_t k) {
  const int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float* xr = x + row * cols;
  float* hv = values + row * k;
  int32_t* hi = indices + row * k;

  // The first k columns, pushed one by one (sift up).
  for (int64_t c = 0; c < k; ++c) {
    const float v = xr[c];
    int64_t i = c;
    while (i > 0) {
      const int64_t p = (i - 1) / 2;
      if (hv[p] <= v) break;
      hv[i] = hv[p];
      hi[i] = hi[p];
      i = p;
    }
    hv[i] = v;
    hi[i] = static_cast<int32_t>(c);
  }

  // Every later column larger than the smallest kept value replaces it.
  float smallest = hv[0];
  for (int64_t c = k; c < cols; ++c) {
    const float v = xr[c];
    if (v > smallest) {
      sift_down(hv, hi, k, 0, v, static_cast<int32_t>(c));
      smallest = hv[0];
    }
  }

  // Heapsort: the minimum goes to the end of the shrinking heap, so slot 0 ends with the largest.
  for (int64_t n = k - 1; n > 0; --n) {
    const float v = hv[n];
    const int32_t id = hi[n];
    hv[n] = hv[0];
    hi[n] = hi[0];
    sift_down(hv, hi, n, 0, v, id);
  }
}

extern "C" void topk_f32(const float* x, float* values, int32_t* indices, int64_t rows, int64_t cols, int64_t k,
                         cudaStream_t stream) {
  if (rows <= 0 || k <= 0) return;
  const int64_t blocks = (rows + kThreads - 1) / kThreads;
  topk_row_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(x, values, indices, rows, cols, k);
}
