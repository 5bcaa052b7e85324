// Arguments of the command-line tools (docs/engine.md, "Arguments and exit status").
#pragma once

#include <string_view>

namespace stk::tools {

// A decimal integer lo..hi written in digits only (no sign, no space), else -1.
long parse_decimal(std::string_view text, long lo, long hi);

}  // namespace stk::tools
