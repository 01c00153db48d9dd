#include "arena_signature.h"

// decode_attention_bf16 host reference (fp64 on the CPU, for `arena tasks check`): plain
// three-step attention per query row (batch b, query head h) over the keys of kv head
// h / (heads / kv_heads): scores, softmax with the row max subtracted, weighted sum of v, all in
// double, narrowed to fp32 and rounded once to bf16.

#include <algorithm>
#include <cmath>
#include <vector>

extern "C" void decode_attention_bf16(const arena_bf16* q, const arena_bf16* k, const arena_bf16* v, arena_bf16* out,
                                      int64_t batch, int64_t heads, int64_t kv_heads, int64_t seq_k, int64_t head_dim,
                                      float scale) {
  const int64_t D = head_dim;
  const int64_t rows = batch * heads;
  const int64_t group = heads / kv_heads;
#pragma omp parallel
  {
    std::vector<double> p(static_cast<size_t>(seq_k)), acc(static_cast<size_t>(D));
#pragma omp for schedule(dynamic, 1)
    for (int64_t row = 0; row < rows; ++row) {
      const int64_t b = row / heads, h = row % heads;
      const int64_t kvh = h / group;
      const arena_bf16* kb = k + (b * kv_heads + kvh) * seq_k * D;
      const arena_bf16* vb = v + (b * kv_heads + kvh) * seq_k * D;
      double m = -INFINITY;
      for (int64_t j = 0; j < seq_k; ++j) {
        double s = 0.0;
        for (int64_t d = 0; d < D; ++d)
          s += static_cast<double>(arena_bf16_to_float(q[row * D + d])) * arena_bf16_to_float(kb[j * D + d]);
        p[j] = s * static_cast<double>(scale);
        m = std::max(m, p[j]);
      }
      double l = 0.0;
      for (int64_t j = 0; j < seq_k; ++j) l += (p[j] = std::exp(p[j] - m));
      std::fill(acc.begin(), acc.end(), 0.0);
      for (int64_t j = 0; j < seq_k; ++j)
        for (int64_t d = 0; d < D; ++d) acc[d] += p[j] * arena_bf16_to_float(vb[j * D + d]);
      for (int64_t d = 0; d < D; ++d) out[row * D + d] = arena_float_to_bf16(static_cast<float>(acc[d] / l));
    }
  }
}
