#include "commands/compare/shell.h"

#include <sys/wait.h>

#include <cstdio>

namespace stk::harness::compare {

ShellResult run_shell(const std::string& command) {
  ShellResult r;
  FILE* p = popen(("(" + command + ") </dev/null 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) r.output.append(buf, n);
  const int status = pclose(p);
  r.exit_code = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string tail_lines(const std::string& text, int lines) {
  std::size_t at = text.size();
  if (at && text[at - 1] == '\n') --at;
  while (lines-- > 0 && at != std::string::npos && at > 0) at = text.rfind('\n', at - 1);
  return at == std::string::npos || at == 0 ? text : text.substr(at + 1);
}

}  // namespace stk::harness::compare
