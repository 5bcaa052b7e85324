#include "tools/arguments.h"

#include <charconv>

namespace stk::tools {

long parse_decimal(std::string_view text, long lo, long hi) {
  // from_chars alone takes a leading '-' ("-0" would be a depth): a digit must come first.
  if (text.empty() || text[0] < '0' || text[0] > '9') return -1;
  long v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  return ec == std::errc() && ptr == end && v >= lo && v <= hi ? v : -1;
}

}  // namespace stk::tools
