// Independent model of proc/command_words: the documented quoting rules (docs/uci.md, "Engine
// commands") written here as a small state machine, and /bin/sh itself on the characters where a
// shell does nothing but quote.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "cli_support.h"
#include "proc/command_words.h"

// One namespace per file: the tests build in unity batches, where a using-directive or helper
// name of one file would otherwise reach the next.
namespace proc_model_test {

namespace proc = stk::harness::proc;

namespace {

// The words of `text`, or nullopt for a refused text (an unbalanced quote or a trailing \).
std::optional<std::vector<std::string>> model_split(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  bool started = false;
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (started) words.push_back(word);
      word.clear();
      started = false;
      ++i;
    } else if (c == '\'') {
      const auto end = text.find('\'', i + 1);
      if (end == std::string::npos) return std::nullopt;
      word += text.substr(i + 1, end - i - 1);
      started = true;
      i = end + 1;
    } else if (c == '"') {
      std::size_t j = i + 1;
      for (;; ++j) {
        if (j >= n) return std::nullopt;
        if (text[j] == '"') break;
        if (text[j] == '\\' && j + 1 < n &&
            (text[j + 1] == '$' || text[j + 1] == '`' || text[j + 1] == '"' ||
             text[j + 1] == '\\' || text[j + 1] == '\n')) {
          if (text[j + 1] != '\n') word += text[j + 1];
          ++j;
        } else {
          word += text[j];
        }
      }
      started = true;
      i = j + 1;
    } else if (c == '\\') {
      if (i + 1 >= n) return std::nullopt;
      if (text[i + 1] != '\n') {
        word += text[i + 1];
        started = true;
      }
      i += 2;
    } else {
      word += c;
      started = true;
      ++i;
    }
  }
  if (started) words.push_back(word);
  return words;
}

std::optional<std::vector<std::string>> code_split(const std::string& text) {
  try {
    return proc::split_words(text);
  } catch (const proc::CommandSyntaxError&) {
    return std::nullopt;
  }
}

// What /bin/sh makes of `text` as the arguments of printf: the words, NUL-terminated.
std::vector<std::string> shell_split(const std::string& text) {
  const auto dir = stk::test::scratch_dir("proc-model-sh");
  {
    std::ofstream script(dir / "words.sh", std::ios::binary);
    script << "printf '%s\\0' MARK " << text << "\n";
  }
  const auto r = stk::test::run_command("sh '" + (dir / "words.sh").string() + "'");
  std::vector<std::string> words;
  std::string w;
  for (char c : r.output) {
    if (c == '\0') words.push_back(w), w.clear();
    else w += c;
  }
  if (!words.empty()) words.erase(words.begin());  // MARK
  return words;
}

}  // namespace

// MODEL proc-command-words
// checks: harness/src/proc/command_words.cpp  (a typed command split into words by shell quoting)
// contract: docs/uci.md#engine-commands-how-stk-harness-starts-another-engine
// planted: ci/mutants/model-proc-command-words.patch  (a \ inside "..." escapes any character)
TEST_CASE("split_words equals a model of the documented quoting rules on generated commands",
          "[model][proc]") {
  rc::prop("every text over the quoting alphabet", [] {
    const auto text = *rc::gen::container<std::string>(
        rc::gen::elementOf(std::string("ab $`'\"\\\n\t;*~")));
    RC_ASSERT(code_split(text) == model_split(text));
  });
  rc::prop("/bin/sh splits the same where it only quotes", [] {
    const auto text = *rc::gen::container<std::string>(
        rc::gen::elementOf(std::string("ab '\"\\\t")));
    const auto model = model_split(text);
    RC_PRE(model.has_value());
    RC_ASSERT(*code_split(text) == shell_split(text));
  });
  // Both ways inside "...": a \ escapes only $ ` " \ and newline; before anything else it stays.
  CHECK(proc::split_words("\"a\\b\"") == std::vector<std::string>{"a\\b"});
  CHECK(proc::split_words("\"a\\$b\"") == std::vector<std::string>{"a$b"});
  CHECK(proc::split_words("\"a\\\\b\"") == std::vector<std::string>{"a\\b"});
}

// MODEL proc-display-command
// checks: harness/src/proc/command_words.cpp  (an argument vector shown as a pasteable line)
// contract: docs/uci.md#engine-commands-how-stk-harness-starts-another-engine
// planted: ci/mutants/model-proc-display-command.patch  (a ' inside a quoted word left as is)
TEST_CASE("display_command reads back as the same words and is bare exactly for safe words",
          "[model][proc]") {
  rc::prop("split_words(display_command(argv)) == argv", [] {
    const auto argv = *rc::gen::nonEmpty(
        rc::gen::container<std::vector<std::string>>(rc::gen::container<std::string>(
            rc::gen::elementOf(std::string("aZ09_./:,+@%=- '\"\\$\n")))));
    RC_ASSERT(proc::split_words(proc::display_command(argv)) == argv);
  });
  rc::prop("quote_word is bare exactly for a non-empty word of [A-Za-z0-9_./:,+@%=-]", [] {
    const auto w = *rc::gen::container<std::string>(
        rc::gen::elementOf(std::string("aZ09_./:,+@%=- '\"\\$")));
    const bool safe = !w.empty() && w.find_first_not_of(
                                        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789_./:,+@%=-") == std::string::npos;
    RC_ASSERT((proc::quote_word(w) == w) == safe);
    RC_ASSERT(proc::split_words(proc::quote_word(w)) == std::vector<std::string>{w});
  });
  CHECK(proc::split_words(proc::display_command({"it's", "a b"})) ==
        std::vector<std::string>{"it's", "a b"});
}

}  // namespace proc_model_test
