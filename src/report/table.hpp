// A plain-text table for the terminal: columns sized to their widest cell.
#pragma once

#include <string>
#include <vector>

namespace arena {

class Table {
 public:
  explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
  void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  std::string render() const;
  // The same rows as a Markdown (GitHub) table; '|' in cells escaped.
  std::string render_markdown() const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

// "12.3 us", "4.56 ms": a duration in nanoseconds, three significant digits.
std::string format_duration_ns(double ns);
// A number with `digits` significant digits.
std::string format_number(double v, int digits = 3);

}  // namespace arena
