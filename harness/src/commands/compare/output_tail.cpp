#include "commands/compare/output_tail.h"

namespace stk::harness::compare {

std::string tail_lines(const std::string& text, int lines) {
  if (lines <= 0) return "";
  // `from` is the newline before the part kept; a final newline ends the last line, it starts none.
  std::size_t from = text.size();
  if (from && text[from - 1] == '\n') --from;
  for (; lines > 0; --lines) {
    if (from == 0) return text;
    from = text.rfind('\n', from - 1);
    if (from == std::string::npos) return text;
  }
  return text.substr(from + 1);
}

}  // namespace stk::harness::compare
