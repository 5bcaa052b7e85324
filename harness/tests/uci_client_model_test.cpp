// Independent model of uci_client/uci_lines: info and bestmove lines built from generated fields
// (the UCI protocol's "Engine to GUI" words, docs/uci.md "Reading another engine's lines"), so
// what a line must parse to is known from how it was made.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "rc_support.h"
#include "uci_client/uci_lines.h"

// One namespace per file: the tests build in unity batches, where a using-directive or helper
// name of one file would otherwise reach the next.
namespace uci_client_model_test {

namespace uci = stk::harness::uci;

namespace {

struct Expected {
  std::optional<int> depth, seldepth, multipv;
  std::optional<std::uint64_t> nodes, time_ms;
  uci::InfoLine::Score kind = uci::InfoLine::Score::None;
  int score = 0;
  bool lower = false, upper = false, has_pv = false;
  std::vector<std::string> pv, malformed;
  std::optional<std::string> text;
};

rc::Gen<std::string> gen_sep() {
  return rc::gen::nonEmpty(
      rc::gen::container<std::string>(rc::gen::elementOf(std::string("  \t"))));
}

// Words that are no keyword of an info line (for skipped fields and bad values).
rc::Gen<std::string> gen_plain_word() {
  return rc::gen::elementOf(std::vector<std::string>{"abc", "1.5", "+3", "-", "0x10", "e2e4",
                                                     "nostring", "strings", "deep",
                                                     "18446744073709551616", "2147483648", "pvx"});
}

// Bad values of a number field, keywords included: the field takes its next word whatever it is.
rc::Gen<std::string> gen_bad_value() {
  return rc::gen::oneOf(gen_plain_word(),
                        rc::gen::elementOf(std::vector<std::string>{"lowerbound", "upperbound",
                                                                    "depth", "nodes", "score"}));
}

// Appends one generated field to `line` and what it means to `e`.
void add_field(std::string& line, Expected& e) {
  const int pick = *rc::gen::inRange(0, 12);
  auto sep = [&] { line += *gen_sep(); };
  auto int_field = [&](const char* key, std::optional<int>& slot) {
    sep();
    line += key;
    sep();
    if (*rc::gen::arbitrary<bool>()) {
      const int v = *rc::gen::arbitrary<int>();
      line += std::to_string(v);
      slot = v;
    } else {
      const auto bad = *gen_bad_value();
      line += bad;
      e.malformed.push_back(std::string(key) + " " + bad);  // the field keeps any earlier value
    }
  };
  auto u64_field = [&](const char* key, std::optional<std::uint64_t>& slot) {
    sep();
    line += key;
    sep();
    if (*rc::gen::arbitrary<bool>()) {
      const auto v = *rc::gen::arbitrary<std::uint64_t>();
      line += std::to_string(v);
      slot = v;
    } else {
      const auto bad = *rc::gen::suchThat(rc::gen::oneOf(gen_bad_value(),
                                                         rc::gen::just(std::string("-1"))),
                                          [](const std::string& w) { return w != "2147483648"; });
      line += bad;
      e.malformed.push_back(std::string(key) + " " + bad);  // the field keeps any earlier value
    }
  };
  switch (pick) {
    case 0: int_field("depth", e.depth); break;
    case 1: int_field("seldepth", e.seldepth); break;
    case 2: int_field("multipv", e.multipv); break;
    case 3: u64_field("nodes", e.nodes); break;
    case 4: u64_field("time", e.time_ms); break;
    case 5: {
      const bool mate = *rc::gen::arbitrary<bool>();
      const int v = *rc::gen::arbitrary<int>();
      sep(), line += "score", sep(), line += mate ? "mate" : "cp", sep(), line += std::to_string(v);
      e.kind = mate ? uci::InfoLine::Score::Mate : uci::InfoLine::Score::Cp;
      e.score = v;
      break;
    }
    case 6: {  // a malformed score: "score WORD", reading goes on with WORD (a plain word)
      const auto w = *gen_plain_word();
      sep(), line += "score", sep(), line += w;
      e.malformed.push_back("score " + w);
      break;
    }
    case 7: sep(), line += "lowerbound", e.lower = true; break;
    case 8: sep(), line += "upperbound", e.upper = true; break;
    case 9: {  // skipped fields
      const auto key = *rc::gen::elementOf(
          std::vector<std::string>{"nps", "hashfull", "tbhits", "currmove", "wdl", "cpuload"});
      sep(), line += key;
      const int n = *rc::gen::inRange(0, 4);
      for (int i = 0; i < n; ++i) sep(), line += *gen_plain_word();
      break;
    }
    default: break;
  }
}

}  // namespace

// MODEL uci-client-info-line
// checks: harness/src/uci_client/uci_lines.cpp  (the fields of a UCI info line)
// contract: docs/uci.md#reading-another-engines-lines-uci_clientuci_linesh
// planted: ci/mutants/model-uci-client-info-line.patch  (a malformed number's value word not consumed)
TEST_CASE("parse_info equals the fields an info line was generated from", "[model][uci_client]") {
  rc::prop("generated info lines", [] {
    Expected e;
    std::string line = std::string(std::size_t(*rc::gen::inRange(0, 2)), ' ') + "info";
    const int n = *rc::gen::inRange(0, 8);
    for (int i = 0; i < n; ++i) add_field(line, e);
    switch (*rc::gen::inRange(0, 4)) {
      case 0: {
        line += *gen_sep() + "pv";
        e.has_pv = true;
        e.pv = *rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(
            std::vector<std::string>{"e2e4", "e7e5", "depth", "string", "a7a8q"}));
        for (const auto& m : e.pv) line += *gen_sep() + m;
        break;
      }
      case 1: {
        const auto sep = *gen_sep();
        const auto text = *rc::gen::container<std::string>(
            rc::gen::elementOf(std::string("ab \tpv:string")));
        line += *gen_sep() + "string" + sep + text;
        e.text = sep.substr(1) + text;
        break;
      }
      case 2: {  // a number field with no value at the end of the line
        const auto key = *rc::gen::elementOf(std::vector<std::string>{"depth", "nodes", "time"});
        line += *gen_sep() + key;
        e.malformed.push_back(key);
        break;
      }
      default: break;
    }
    const auto got = uci::parse_info(line);
    RC_ASSERT(got.has_value());
    RC_ASSERT(got->depth == e.depth);
    RC_ASSERT(got->seldepth == e.seldepth);
    RC_ASSERT(got->multipv == e.multipv);
    RC_ASSERT(got->nodes == e.nodes);
    RC_ASSERT(got->time_ms == e.time_ms);
    RC_ASSERT(got->score_kind == e.kind);
    if (e.kind != uci::InfoLine::Score::None) RC_ASSERT(got->score == e.score);
    RC_ASSERT(got->lowerbound == e.lower);
    RC_ASSERT(got->upperbound == e.upper);
    RC_ASSERT(got->has_pv == e.has_pv);
    RC_ASSERT(got->pv == e.pv);
    RC_ASSERT(got->text == e.text);
    RC_ASSERT(got->malformed == e.malformed);
  });
  CHECK_FALSE(uci::parse_info("infos depth 3"));
  CHECK_FALSE(uci::parse_info(""));
  CHECK_FALSE(uci::parse_info("bestmove e2e4"));
  CHECK(uci::parse_info("info nostring x string hello")->text == "hello");
  // Both ways: a bad value is consumed even when it is a keyword; a good one too.
  const auto bad = uci::parse_info("info depth lowerbound nodes 5");
  CHECK(bad->malformed == std::vector<std::string>{"depth lowerbound"});
  CHECK_FALSE(bad->lowerbound);
  CHECK(bad->nodes == std::optional<std::uint64_t>(5));
  CHECK(uci::parse_info("info depth 7 lowerbound")->lowerbound);
}

// MODEL uci-client-bestmove-line
// checks: harness/src/uci_client/uci_lines.cpp  (the move and ponder move of a bestmove line)
// contract: docs/uci.md#reading-another-engines-lines-uci_clientuci_linesh
// planted: ci/mutants/model-uci-client-bestmove-line.patch  (ponder taken without its keyword)
TEST_CASE("parse_bestmove equals the words a bestmove line was generated from",
          "[model][uci_client]") {
  rc::prop("generated bestmove lines", [] {
    const auto words = *rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(
        std::vector<std::string>{"e2e4", "0000", "(none)", "ponder", "e7e5", "a7a8q", "x"}));
    std::string line = (*rc::gen::arbitrary<bool>() ? "" : " ") + std::string("bestmove");
    for (const auto& w : words) line += *gen_sep() + w;
    const auto got = uci::parse_bestmove(line);
    RC_ASSERT(got.has_value());
    RC_ASSERT(got->move == (words.empty() ? std::string() : words[0]));
    const std::optional<std::string> ponder = words.size() >= 3 && words[1] == "ponder"
                                                  ? std::optional<std::string>(words[2])
                                                  : std::nullopt;
    RC_ASSERT(got->ponder == ponder);
  });
  CHECK_FALSE(uci::parse_bestmove("info bestmove e2e4"));
}

namespace {

// One clause of a generated option line: a keyword (or, first only, a word that is none) and
// its value's words.
struct Clause {
  std::string key;
  std::vector<std::string> words;
};

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

// Words of values: numbers (good and bad for a spin), check and combo values, none a keyword.
rc::Gen<std::vector<std::string>> gen_value_words(int most) {
  return stk::test::up_to<std::vector<std::string>>(
      std::size_t(most),
      rc::gen::elementOf(std::vector<std::string>{"1", "16", "0", "-5", "65536", "+3", "1.5",
                                                  "true", "false", "Solid", "Wild", "x"}));
}

// The fields and the problem the documented rule gives for the clauses, in order (docs/uci.md
// "Reading another engine's lines", option): worked out clause by clause, not word by word.
struct ExpectedOption {
  uci::OptionLine fields;
  std::string problem;  // a fragment of the first problem, "" when the line is well formed
};

ExpectedOption expected_option(const std::vector<Clause>& clauses) {
  ExpectedOption e;
  uci::OptionLine& o = e.fields;
  std::string garbage;
  bool in_name = false;  // the name's value runs to the next "type", over any other keyword
  for (const Clause& c : clauses) {
    if (in_name && c.key != "type") {
      o.name += (o.name.empty() ? "" : " ") + c.key;
      for (const auto& w : c.words) o.name += " " + w;
      continue;
    }
    in_name = false;
    const std::string value = joined(c.words);
    if (c.key == "name") o.name = value, in_name = true;
    else if (c.key == "type") o.type = value;
    else if (c.key == "default") o.default_value = value;
    else if (c.key == "min") o.min = value;
    else if (c.key == "max") o.max = value;
    else if (c.key == "var") o.vars.push_back(value);
    else garbage = c.key;
  }
  auto integer = [](const std::optional<std::string>& t) -> std::optional<long long> {
    if (!t || t->empty()) return std::nullopt;
    const std::size_t digits = (*t)[0] == '-' ? 1 : 0;
    if (t->size() == digits || t->find_first_not_of("0123456789", digits) != std::string::npos)
      return std::nullopt;
    return std::stoll(*t);
  };
  const bool known_type = o.type == "check" || o.type == "spin" || o.type == "combo" ||
                          o.type == "button" || o.type == "string";
  const auto lo = integer(o.min), hi = integer(o.max), def = integer(o.default_value);
  const bool in_vars = o.default_value &&
                       std::find(o.vars.begin(), o.vars.end(), *o.default_value) != o.vars.end();
  if (!garbage.empty()) e.problem = "unexpected word '" + garbage + "'";
  else if (o.name.empty()) e.problem = "no name";
  else if (!known_type) e.problem = "type '" + o.type + "' is not";
  else if (o.type != "button" && !o.default_value) e.problem = "no default";
  else if (o.type == "check" && *o.default_value != "true" && *o.default_value != "false")
    e.problem = "not true or false";
  else if (o.type == "spin" && !lo) e.problem = "spin min";
  else if (o.type == "spin" && !hi) e.problem = "spin max";
  else if (o.type == "spin" && !def) e.problem = "spin default not an integer";
  else if (o.type == "spin" && (*lo > *hi || *def < *lo || *def > *hi)) e.problem = "outside [";
  else if (o.type == "combo" && !in_vars) e.problem = "combo default is not one of its vars";
  return e;
}

}  // namespace

// MODEL uci-client-option-line
// checks: harness/src/uci_client/uci_lines.cpp  (the fields of an option line and its first problem)
// contract: docs/uci.md#reading-another-engines-lines-uci_clientuci_linesh
// planted: ci/mutants/model-uci-client-option-var-kept-once.patch  (a repeated var replacing the last)
TEST_CASE("parse_option equals the clauses an option line was generated from",
          "[model][uci_client]") {
  rc::prop("generated option lines, clauses in any order", [] {
    std::vector<Clause> clauses;
    auto maybe = [&](const char* key, std::vector<std::string> words) {
      if (*rc::gen::inRange(0, 5) > 0) clauses.push_back({key, std::move(words)});
    };
    // A name may hold every keyword but "type" (and holds them when no "type" follows it).
    maybe("name", *stk::test::up_to<std::vector<std::string>>(
                      3, rc::gen::elementOf(std::vector<std::string>{"Hash", "Skill", "Level",
                                                                     "name", "min", "max",
                                                                     "default", "var", "x"})));
    maybe("type",
          *stk::test::up_to<std::vector<std::string>>(
              1, rc::gen::elementOf(std::vector<std::string>{"check", "spin", "combo", "button",
                                                             "string", "slider", "Spin"})));
    maybe("default", *gen_value_words(2));
    maybe("min", *gen_value_words(1));
    maybe("max", *gen_value_words(1));
    if (*rc::gen::inRange(0, 4) == 0) clauses.push_back({"default", *gen_value_words(1)});
    const int vars = *rc::gen::inRange(0, 4);
    for (int i = 0; i < vars; ++i) clauses.push_back({"var", *gen_value_words(2)});
    // Clauses in any order: a sort by generated keys.
    const auto keys = *rc::gen::container<std::vector<int>>(clauses.size(), rc::gen::inRange(0, 8));
    std::vector<std::size_t> order(clauses.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
    std::vector<Clause> ordered;
    if (*rc::gen::inRange(0, 8) == 0) ordered.push_back({"Style", *gen_value_words(1)});
    for (std::size_t i : order) ordered.push_back(clauses[i]);

    std::string line = "option";
    for (const Clause& c : ordered) {
      line += *gen_sep() + c.key;
      for (const auto& w : c.words) line += *gen_sep() + w;
    }
    const ExpectedOption want = expected_option(ordered);
    std::string problem = "stale";
    const auto got = uci::parse_option(line, &problem);
    RC_ASSERT(got.has_value());
    RC_ASSERT(got->name == want.fields.name);
    RC_ASSERT(got->type == want.fields.type);
    RC_ASSERT(got->default_value == want.fields.default_value);
    RC_ASSERT(got->min == want.fields.min);
    RC_ASSERT(got->max == want.fields.max);
    RC_ASSERT(got->vars == want.fields.vars);
    if (want.problem.empty()) RC_ASSERT(problem.empty());
    else RC_ASSERT(problem.find(want.problem) != std::string::npos);
  });
  std::string problem;
  CHECK_FALSE(uci::parse_option("info option name X", &problem));
}

}  // namespace uci_client_model_test
