// SHA-256 (FIPS 180-4), for content-hash cache keys and solution identities.
#pragma once

#include <string>
#include <string_view>

namespace arena {

// Hex digest of `data`.
std::string sha256_hex(std::string_view data);

}  // namespace arena
