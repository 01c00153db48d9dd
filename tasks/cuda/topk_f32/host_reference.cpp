#include "arena_signature.h"

// topk_f32 host reference (on the CPU, for `arena tasks check`): for each row, the (value,
// column) pairs ordered by value descending (ties, which the inputs never have, by column
// ascending) with std::partial_sort, the first k copied out. Validates reference.cu.

#include <algorithm>
#include <utility>
#include <vector>

extern "C" void topk_f32(const float* x, float* values, int32_t* indices, int64_t rows, int64_t cols, int64_t k) {
#pragma omp parallel
  {
    std::vector<std::pair<float, int32_t>> row(static_cast<size_t>(cols));
#pragma omp for schedule(dynamic, 16)
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) row[c] = {x[r * cols + c], static_cast<int32_t>(c)};
      std::partial_sort(row.begin(), row.begin() + k, row.end(), [](const auto& a, const auto& b) {
        return a.first > b.first || (a.first == b.first && a.second < b.second);
      });
      for (int64_t j = 0; j < k; ++j) {
        values[r * k + j] = row[j].first;
        indices[r * k + j] = row[j].second;
      }
    }
  }
}
