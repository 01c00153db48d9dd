#include "report/table.hpp"

#include <algorithm>
#include <cstdio>

namespace arena {
namespace {
// Display width of UTF-8 text: count the bytes that start a character.
size_t width(const std::string& s) {
  return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}
}  // namespace

std::string Table::render() const {
  std::vector<size_t> w(header_.size(), 0);
  auto measure = [&](const std::vector<std::string>& row) {
    for (size_t i = 0; i < row.size() && i < w.size(); ++i) w[i] = std::max(w[i], width(row[i]));
  };
  measure(header_);
  for (const auto& r : rows_) measure(r);
  auto line = [&](const std::vector<std::string>& row) {
    std::string s;
    for (size_t i = 0; i < w.size(); ++i) {
      std::string cell = i < row.size() ? row[i] : "";
      s += cell + std::string(w[i] - width(cell) + (i + 1 < w.size() ? 2 : 0), ' ');
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s + "\n";
  };
  std::string out = line(header_);
  std::vector<std::string> rule;
  rule.reserve(w.size());
  for (size_t x : w) rule.emplace_back(x, '-');
  out += line(rule);
  for (const auto& r : rows_) out += line(r);
  return out;
}

std::string Table::render_markdown() const {
  auto line = [](const std::vector<std::string>& row, size_t n) {
    std::string s = "|";
    for (size_t i = 0; i < n; ++i) {
      std::string cell = i < row.size() ? row[i] : "";
      std::string escaped;
      for (char c : cell) escaped += c == '|' ? std::string("\\|") : std::string(1, c);
      s += " " + escaped + " |";
    }
    return s + "\n";
  };
  std::string out = line(header_, header_.size());
  out += line(std::vector<std::string>(header_.size(), "---"), header_.size());
  for (const auto& r : rows_) out += line(r, header_.size());
  return out;
}

std::string format_number(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

std::string format_duration_ns(double ns) {
  if (ns < 1e3) return format_number(ns) + " ns";
  if (ns < 1e6) return format_number(ns / 1e3) + " us";
  if (ns < 1e9) return format_number(ns / 1e6) + " ms";
  return format_number(ns / 1e9) + " s";
}

}  // namespace arena
