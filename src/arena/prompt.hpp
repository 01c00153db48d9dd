// The agent's prompt (PROMPT.md): a template (agents/prompt.md, or the run's own) with
// {{placeholders}} filled from the episode.
#pragma once

#include <map>
#include <string>

namespace arena {

// Replaces every {{name}} with vars[name]; throws InputError naming `template_name` and the
// placeholder when one is unknown.
std::string render_prompt(const std::string& templ, const std::map<std::string, std::string>& vars,
                          const std::string& template_name);

}  // namespace arena
