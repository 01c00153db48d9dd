#include "agents/code_block.hpp"

#include <sstream>

namespace arena {
namespace {

struct Fence {
  char ch = 0;
  size_t length = 0;
  size_t end = 0;  // where the fence's characters end in the line
};

// The fence that `line` starts with, if any.
std::optional<Fence> fence_of(const std::string& line) {
  size_t i = 0;
  while (i < line.size() && i < 3 && line[i] == ' ') ++i;
  if (i >= line.size() || (line[i] != '`' && line[i] != '~')) return std::nullopt;
  Fence f{line[i], 0, i};
  while (f.end < line.size() && line[f.end] == f.ch) ++f.end;
  f.length = f.end - i;
  if (f.length < 3) return std::nullopt;
  return f;
}

bool closes(const std::string& line, const Fence& open) {
  auto f = fence_of(line);
  if (!f || f->ch != open.ch || f->length < open.length) return false;
  return line.find_first_not_of(" \t\r", f->end) == std::string::npos;
}

}  // namespace

std::optional<std::string> last_code_block(const std::string& markdown) {
  std::optional<std::string> last;
  std::optional<Fence> open;
  std::string block;
  std::istringstream in(markdown);
  for (std::string line; std::getline(in, line);) {
    if (!open) {
      auto f = fence_of(line);
      // A backtick fence's info string holds no backtick (that is inline code).
      if (f && !(f->ch == '`' && line.find('`', f->end) != std::string::npos)) {
        open = f;
        block.clear();
      }
    } else if (closes(line, *open)) {
      last = block;
      open.reset();
    } else {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      block += line + "\n";
    }
  }
  if (open) last = block;
  return last;
}

}  // namespace arena
