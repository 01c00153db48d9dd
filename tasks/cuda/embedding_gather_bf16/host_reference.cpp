#include "arena_signature.h"

// embedding_gather_bf16 host reference (on the CPU, for `arena tasks check`): each output row is
// a memcpy of the table row its id names.

#include <cstring>

extern "C" void embedding_gather_bf16(const arena_bf16* table, const int32_t* ids, arena_bf16* out, int64_t vocab,
                                      int64_t dim, int64_t tokens) {
  (void)vocab;
#pragma omp parallel for schedule(static)
  for (int64_t t = 0; t < tokens; ++t)
    std::memcpy(out + t * dim, table + static_cast<int64_t>(ids[t]) * dim, static_cast<size_t>(dim) * sizeof(arena_bf16));
}
