// Independent models of what compare (and bench-diff) make of names and of a failing child's
// output (docs/harnesses/compare.md "Names and messages"), compared with the code on generated
// strings: a side's label is a safe name (checked by cli/file_names.h's rule, not by the label's
// own code) and a safe name is its own label; the tail of an output is its last lines, split here
// from the contract's definition of a line.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <string>
#include <vector>

#include "cli/file_names.h"
#include "commands/compare/compare_side.h"
#include "commands/compare/output_tail.h"
#include "rc_support.h"

using namespace stk::harness;

namespace names_model {

// Text over a few characters, newlines and carriage returns frequent: the cases of a line's end.
rc::Gen<std::string> output_text() {
  return rc::gen::container<std::string>(
      rc::gen::weightedElement<char>({{3, 'a'}, {1, 'b'}, {3, '\n'}, {1, '\r'}, {1, ' '}}));
}

// The contract's lines: each ends at '\n' (kept with it); the last may lack one.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::string current;
  for (const char c : text) {
    current += c;
    if (c == '\n') lines.push_back(current), current.clear();
  }
  if (!current.empty()) lines.push_back(current);
  return lines;
}

std::string last_lines(const std::string& text, int n) {
  const std::vector<std::string> lines = lines_of(text);
  if (n <= 0) return "";
  const std::size_t from = lines.size() > std::size_t(n) ? lines.size() - std::size_t(n) : 0;
  std::string out;
  for (std::size_t i = from; i < lines.size(); ++i) out += lines[i];
  return out;
}

// A side as given: safe characters and the ones a path or a revision brings ('/', '~', '^',
// spaces, quotes, a NUL, a byte above 127), dots and dashes frequent (the rule's edge cases),
// the empty side included.
rc::Gen<std::string> given_side() {
  const rc::Gen<char> ch = rc::gen::weightedElement<char>({{4, 'a'},
                                                           {1, 'Z'},
                                                           {1, '7'},
                                                           {4, '.'},
                                                           {3, '-'},
                                                           {1, '_'},
                                                           {2, '/'},
                                                           {1, '~'},
                                                           {1, '^'},
                                                           {1, ' '},
                                                           {1, '\''},
                                                           {1, '\0'},
                                                           {1, char(0xC3)}});
  // Mostly short; one in four up to 300 characters (a long path: past the label's length).
  return rc::gen::weightedOneOf<std::string>(
      {{3, stk::test::up_to<std::string>(40, ch)}, {1, stk::test::up_to<std::string>(300, ch)}});
}

}  // namespace names_model

// MODEL compare-output-tail
// checks: harness/src/commands/compare/output_tail.cpp  (the last lines of a failing child's output that compare and bench-diff show)
// contract: docs/harnesses/compare.md#names-and-messages
// planted: ci/mutants/model-compare-output-tail.patch  (a final newline counted as the start of an empty last line)
TEST_CASE("model: a failing child's output is shown by its last lines", "[model][compare]") {
  using namespace names_model;
  rc::prop("generated outputs, any count of lines", [] {
    const std::string text = *output_text();
    const int n = *rc::gen::inRange(0, 8);
    RC_ASSERT(compare::tail_lines(text, n) == last_lines(text, n));
  });
  // Found by the model: an output whose first character is a newline was shown whole, as if the
  // newline before the kept part were none ("\nb", 1 line: "\nb" instead of "b").
  CHECK(compare::tail_lines("\nb", 1) == "b");
  CHECK(compare::tail_lines("\n\n", 1) == "\n");
  CHECK(compare::tail_lines("a\nb", 0).empty());
}

// MODEL compare-file-label
// checks: harness/src/commands/compare/compare_side.cpp  (a side's label and the default config of compare and bench-diff)
// contract: docs/harnesses/compare.md#names-and-messages
// planted: ci/mutants/model-compare-file-label.patch  (a leading '-' kept: an option look-alike)
TEST_CASE("model: a side's label is a safe name, and a safe name is its own label",
          "[model][compare]") {
  using namespace names_model;
  rc::prop("generated sides", [] {
    const std::string given = *given_side();
    const std::string label = compare::file_label(given);
    RC_ASSERT(is_safe_name(label));
    RC_ASSERT(label.size() <= 98u);
    if (is_safe_name(given) && given.size() <= 98) RC_ASSERT(label == given);
    // A long side keeps its end: the label of the last 98 characters.
    if (given.size() > 98) RC_ASSERT(label == compare::file_label(given.substr(given.size() - 98)));
    const std::string other = *given_side();
    RC_ASSERT(is_safe_name(compare::default_config(given, other)));
    RC_ASSERT(compare::default_config(given, other) == label + "-vs-" + compare::file_label(other));
  });
}
