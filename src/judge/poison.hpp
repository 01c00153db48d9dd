// What an output buffer holds before every call: a NaN with a recognisable payload for float
// dtypes, a random sentinel for integers. Elements still holding it afterwards were never
// written, and a solution that returns stale memory cannot pass.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/dtype.hpp"

namespace arena {

struct Poison {
  DType dtype = DType::kFp32;
  uint64_t bits = 0;  // the element's bit pattern, in its low dtype_size bytes
};

// The poison for one call; `nonce` varies the integer sentinel from call to call.
Poison make_poison(DType t, uint64_t nonce);
void fill_poison(const Poison& p, void* data, size_t elements);
bool is_poison(const Poison& p, const void* data, size_t i);

}  // namespace arena
