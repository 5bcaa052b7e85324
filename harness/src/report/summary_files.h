// Small helpers for the JSON/Markdown summaries every harness writes under reports/<harness>/.
#pragma once

#include <string>

namespace stk::harness {

// Writes `content` to `path`, creating parent folders; throws InputError on failure.
void write_text_file(const std::string& path, const std::string& content);

}  // namespace stk::harness
