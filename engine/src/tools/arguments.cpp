#include "tools/arguments.h"

namespace stk::tools {

long parse_decimal(std::string_view text, long lo, long hi) {
  if (text.empty() || text.size() > 9) return -1;  // nine digits cannot overflow a long
  long v = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v >= lo && v <= hi ? v : -1;
}

}  // namespace stk::tools
