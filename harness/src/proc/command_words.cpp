#include "proc/command_words.h"

#include <sys/stat.h>
#include <unistd.h>

namespace stk::harness::proc {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n'; }

bool is_executable_file(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

// Appends the inside of "..." starting after the opening quote at `open`; returns the index of
// the closing quote.
std::size_t read_double_quoted(std::string_view text, std::size_t open, std::string& word) {
  for (std::size_t i = open + 1; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') return i;
    if (c == '\\' && i + 1 < text.size() &&
        std::string_view("$`\"\\\n").find(text[i + 1]) != std::string_view::npos) {
      if (text[++i] != '\n') word += text[i];
      continue;
    }
    word += c;
  }
  throw CommandSyntaxError("unbalanced double quote (opened at character " +
                           std::to_string(open + 1) + ")");
}

std::string single_quoted(std::string_view word) {
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;  // a word has begun (an empty '' or "" is a word too)
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (is_blank(c)) {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else if (c == '\\') {
      if (i + 1 == text.size()) throw CommandSyntaxError("ends in a backslash that quotes nothing");
      if (text[++i] == '\n') continue;  // a line continuation, not a character
      word += text[i];
      in_word = true;
    } else if (c == '\'') {
      const std::size_t close = text.find('\'', i + 1);
      if (close == std::string_view::npos)
        throw CommandSyntaxError("unbalanced single quote (opened at character " +
                                 std::to_string(i + 1) + ")");
      word.append(text.substr(i + 1, close - i - 1));
      i = close;
      in_word = true;
    } else if (c == '"') {
      i = read_double_quoted(text, i, word);
      in_word = true;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

std::string quote_word(std::string_view word) {
  static constexpr std::string_view kBare =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:,+@%=-";
  if (!word.empty() && word.find_first_not_of(kBare) == std::string_view::npos)
    return std::string(word);
  return single_quoted(word);
}

std::string display_command(const std::vector<std::string>& argv) {
  std::string out;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    // A first word "NAME=..." would be a variable assignment to a shell: quote it.
    const bool assignment = i == 0 && argv[i].find('=') != std::string::npos;
    out += (i ? " " : "") + (assignment ? single_quoted(argv[i]) : quote_word(argv[i]));
  }
  return out;
}

std::vector<std::string> command_argv(const std::string& command) {
  if (is_executable_file(command))
    return {command.find('/') == std::string::npos ? "./" + command : command};
  std::vector<std::string> words = split_words(command);
  if (words.empty()) throw CommandSyntaxError("holds no command");
  return words;
}

}  // namespace stk::harness::proc
