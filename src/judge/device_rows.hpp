// The lookup every per-device table of the judge shares (the peak table, the window overhead,
// the runner offset): a row is keyed by a short name that the device's full name contains
// ("NVIDIA H200" -> "H200"), and where several keys fit, the longest wins, so a variant's own row
// ("H100 NVL", "H100 PCIe") is never shadowed by its family's ("H100"), whatever the order.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace arena {

// The row of `rows` for the device named `device_name`, or nullptr; `key(row)` gives a row's
// key (anything a std::string_view can be made from).
template <typename Row, std::size_t N, typename Key>
const Row* device_row(const std::array<Row, N>& rows, const std::string& device_name, Key key) {
  const Row* best = nullptr;
  std::size_t best_length = 0;
  for (const Row& row : rows) {
    const std::string_view k = key(row);
    if (!k.empty() && k.size() > best_length && device_name.find(k) != std::string::npos) {
      best = &row;
      best_length = k.size();
    }
  }
  return best;
}

}  // namespace arena
