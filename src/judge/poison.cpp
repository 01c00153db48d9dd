#include "judge/poison.hpp"

#include <cstring>

namespace arena {

Poison make_poison(DType t, uint64_t nonce) {
  Poison p;
  p.dtype = t;
  switch (t) {
    case DType::kFp32:
      p.bits = 0x7FC5A5A5;  // quiet NaN, payload 0x45A5A5
      break;
    case DType::kFp16:
      p.bits = 0x7E5A;
      break;
    case DType::kBf16:
      p.bits = 0x7FE5;
      break;
    case DType::kFp8E4m3:
      p.bits = 0x7F;  // the format's only NaN
      break;
    case DType::kInt32:
      p.bits = static_cast<uint32_t>(nonce * 0x9E3779B1u) | 0x40000001u;  // odd, large
      break;
    case DType::kInt8:
    case DType::kUint8:
      p.bits = static_cast<uint8_t>(nonce * 0x9Du);
      break;
  }
  return p;
}

void fill_poison(const Poison& p, void* data, size_t elements) {
  size_t size = dtype_size(p.dtype);
  auto* bytes = static_cast<unsigned char*>(data);
  if (size == 1) {
    std::memset(bytes, static_cast<int>(p.bits & 0xFF), elements);
    return;
  }
  if (size == 4) {
    auto v = static_cast<uint32_t>(p.bits);
    auto* w = static_cast<uint32_t*>(data);
    for (size_t i = 0; i < elements; ++i) w[i] = v;
    return;
  }
  auto v = static_cast<uint16_t>(p.bits);
  auto* h = static_cast<uint16_t*>(data);
  for (size_t i = 0; i < elements; ++i) h[i] = v;
}

bool is_poison(const Poison& p, const void* data, size_t i) {
  size_t size = dtype_size(p.dtype);
  uint64_t v = 0;
  std::memcpy(&v, static_cast<const unsigned char*>(data) + i * size, size);
  return v == (p.bits & (size == 8 ? ~0ull : ((1ull << (8 * size)) - 1)));
}

}  // namespace arena
