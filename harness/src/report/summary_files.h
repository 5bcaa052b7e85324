// Small helpers for the JSON/Markdown summaries every harness writes under reports/<harness>/.
#pragma once

#include <string>

namespace stk::harness {

// Writes `content` to `path` atomically through io::replace_file (io/output_file.h): parent folders
// created, a non-regular target refused; throws InputError naming the path on failure.
void write_text_file(const std::string& path, const std::string& content);

}  // namespace stk::harness
