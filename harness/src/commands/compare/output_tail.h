// What compare shows of a child's output when it fails.
#pragma once

#include <string>

namespace stk::harness::compare {

// The last `lines` lines of `text`, for error messages: a line ends at '\n' (kept), the last may
// lack one; the whole text when it has no more lines; "" for lines <= 0.
std::string tail_lines(const std::string& text, int lines);

}  // namespace stk::harness::compare
