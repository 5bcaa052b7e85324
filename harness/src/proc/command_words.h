// A command typed as one string ("CMD ARGS": --engine, cmd=, --teacher, --reference) made into an
// argument vector, and an argument vector shown as text a user can paste into a shell.
//
// The rule (docs/uci.md, "Engine commands"): a string naming an existing executable file is that
// program, taken whole (spaces and all), with no arguments. Anything else is split into words the
// way a POSIX shell quotes them, and nothing more: spaces, tabs and newlines separate words;
// '...' keeps everything inside literally; "..." too, except that \ before $ ` " \ or a newline
// escapes it; an unquoted \ makes the next character literal (\ + newline joins lines). There is
// no expansion ($VAR, $(...), `...`, ~), no globbing, no redirection or pipes, no comments: every
// other character is itself. An unbalanced quote or a trailing \ is refused.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace stk::harness::proc {

// A command string that cannot be split: what() says why ("unbalanced single quote (opened at
// character 5)").
struct CommandSyntaxError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The words of `text` by the rule above. Throws CommandSyntaxError.
std::vector<std::string> split_words(std::string_view text);

// `word` as split_words (and /bin/sh) read it back as one word: bare when it holds only
// [A-Za-z0-9_./:,+@%=-] (and is not empty), else in single quotes.
std::string quote_word(std::string_view word);

// The words quoted and joined by spaces: a command line a user can paste.
std::string display_command(const std::vector<std::string>& argv);

// The argument vector of a typed command by the rule above (an existing executable file without
// a '/' gets "./" so it is not looked up in $PATH). Throws CommandSyntaxError for a command that
// does not split or holds no word.
std::vector<std::string> command_argv(const std::string& command);

}  // namespace stk::harness::proc
