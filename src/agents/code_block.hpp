// The last fenced code block of a Markdown text (a model's reply): what the llm agent takes as
// the whole solution file.
#pragma once

#include <optional>
#include <string>

namespace arena {

// The content of the last ``` or ~~~ fenced block, as Markdown (CommonMark) reads fences: an
// opening line of three or more backticks or tildes (up to three spaces of indent, an info string
// such as "cpp" after it), a closing line of the same character at least as long and nothing
// else; a block left open runs to the end of the text. nullopt when there is none.
std::optional<std::string> last_code_block(const std::string& markdown);

}  // namespace arena
