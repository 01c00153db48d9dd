// The lookup every per-device table of the judge shares (the peak table, the window overhead,
// the runner offset): a row is keyed by a short name that the device's full name contains
// ("NVIDIA H200" -> "H200"), and where several keys fit, the longest wins, so a variant's own row
// ("H100 NVL", "H100 PCIe") is never shadowed by its family's ("H100"), whatever the order.
// Rows measured on one part (window overhead, runner offset) use measured_device_row instead: the
// device's whole name, so no variant ("NVIDIA H200 NVL") takes the part's ("NVIDIA H200") figures.
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

// The row of `rows` whose key is the device's whole name, or nullptr: for figures measured on
// that part alone, which no other part (another clock, SM count or memory) may take.
template <typename Row, std::size_t N, typename Key>
const Row* measured_device_row(const std::array<Row, N>& rows, const std::string& device_name, Key key) {
  for (const Row& row : rows) {
    const std::string_view k = key(row);
    if (!k.empty() && device_name == k) return &row;
  }
  return nullptr;
}

}  // namespace arena
