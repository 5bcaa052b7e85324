// Child commands for compare: run a shell line, capture its output and exit status.
#pragma once

#include <string>

namespace stk::harness::compare {

struct ShellResult {
  int exit_code = -1;  // -1 when it did not exit normally (signal) or could not start
  std::string output;  // stdout and stderr together
};

// Runs `command` with /bin/sh, stdin from /dev/null, stderr merged into the captured output.
ShellResult run_shell(const std::string& command);

// 'text' quoted for /bin/sh.
std::string shell_quote(const std::string& text);

// The last `lines` lines of `text`, for error messages.
std::string tail_lines(const std::string& text, int lines);

}  // namespace stk::harness::compare
