#include "arena_signature.h"

// flash_attention_fwd_bf16 host reference (fp64 on the CPU, for `arena tasks check`): plain
// three-step attention per query row — scores, softmax with the row max subtracted, weighted sum
// of v — all in double, narrowed to fp32 and rounded once to bf16. Causal mask bottom-right
// aligned: query i attends keys j <= i + (seq_k - seq_q).

#include <algorithm>
#include <cmath>
#include <vector>

extern "C" void flash_attention_fwd_bf16(const arena_bf16* q, const arena_bf16* k, const arena_bf16* v, arena_bf16* o,
                                         int64_t batch, int64_t heads, int64_t seq_q, int64_t seq_k,
                                         int64_t head_dim, int32_t causal, float scale) {
  const int64_t D = head_dim;
  const int64_t rows = batch * heads * seq_q;
#pragma omp parallel
  {
    std::vector<double> p(static_cast<size_t>(seq_k)), acc(static_cast<size_t>(D));
#pragma omp for schedule(dynamic, 16)
    for (int64_t row = 0; row < rows; ++row) {
      const int64_t bh = row / seq_q, i = row % seq_q;
      const arena_bf16* kb = k + bh * seq_k * D;
      const arena_bf16* vb = v + bh * seq_k * D;
      int64_t kend = seq_k;
      if (causal) kend = std::clamp<int64_t>(i + (seq_k - seq_q) + 1, 0, seq_k);
      double m = -INFINITY;
      for (int64_t j = 0; j < kend; ++j) {
        double s = 0.0;
        for (int64_t d = 0; d < D; ++d)
          s += static_cast<double>(arena_bf16_to_float(q[row * D + d])) * arena_bf16_to_float(kb[j * D + d]);
        p[j] = s * static_cast<double>(scale);
        m = std::max(m, p[j]);
      }
      double l = 0.0;
      for (int64_t j = 0; j < kend; ++j) l += (p[j] = std::exp(p[j] - m));
      std::fill(acc.begin(), acc.end(), 0.0);
      for (int64_t j = 0; j < kend; ++j)
        for (int64_t d = 0; d < D; ++d) acc[d] += p[j] * arena_bf16_to_float(vb[j * D + d]);
      for (int64_t d = 0; d < D; ++d)
        o[row * D + d] = arena_float_to_bf16(kend > 0 ? static_cast<float>(acc[d] / l) : 0.0f);
    }
  }
}
