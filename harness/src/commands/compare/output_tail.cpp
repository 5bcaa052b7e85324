#include "commands/compare/output_tail.h"

namespace stk::harness::compare {

std::string tail_lines(const std::string& text, int lines) {
  std::size_t at = text.size();
  if (at && text[at - 1] == '\n') --at;
  while (lines-- > 0 && at != std::string::npos && at > 0) at = text.rfind('\n', at - 1);
  return at == std::string::npos || at == 0 ? text : text.substr(at + 1);
}

}  // namespace stk::harness::compare
