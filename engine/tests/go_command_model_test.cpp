// An independent model of the "go" arguments (docs/uci.md, "The go command's arguments"): which
// generated commands are refused, which word the error names, and the limits of those accepted.
// Written from the table in the docs, not from parse_go: values are numbers kept as 128-bit
// integers, so a range check is a comparison, never a parse.
#include <algorithm>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include "uci/go_command.h"

using namespace stk;

namespace {

using Int = __int128;

constexpr Int kInt32Min = -(Int(1) << 31), kInt32Max = (Int(1) << 31) - 1;
constexpr Int kInt64Max = (Int(1) << 63) - 1;

// One row of the docs' table: the words, the range of the value (none for a flag).
struct Rule {
  std::string word;
  bool flag = false;
  Int lo = 0, hi = kInt32Max;
};

const std::vector<Rule>& rules() {
  static const std::vector<Rule> r = {
      {"depth"},
      {"movetime"},
      {"winc"},
      {"binc"},
      {"movestogo"},
      {"perft"},
      {"nodes", false, 0, kInt64Max},
      {"wtime", false, kInt32Min, kInt32Max},
      {"btime", false, kInt32Min, kInt32Max},
      {"infinite", true},
      {"ponder", true},
  };
  return r;
}

std::string decimal(Int v) {
  if (v == 0) return "0";
  std::string s;
  const bool negative = v < 0;
  for (Int u = negative ? -v : v; u > 0; u /= 10) s += char('0' + int(u % 10));
  if (negative) s += '-';
  std::reverse(s.begin(), s.end());
  return s;
}

// One argument as sent: a word and, unless it is a flag or the value is left out, a value word.
// `number` is the value when the value word is a decimal integer.
struct Arg {
  std::string word;
  std::optional<std::string> value;
  std::optional<Int> number;
};

// A value for `r`: mostly in range and at its edges, sometimes just outside, sometimes not a number.
rc::Gen<Arg> gen_arg(const Rule& r) {
  if (r.flag) return rc::gen::just(Arg{r.word, std::nullopt, std::nullopt});
  return rc::gen::exec([r] {
    Arg a{r.word, std::nullopt, std::nullopt};
    switch (*rc::gen::inRange(0, 10)) {
      case 0: a.number = r.lo; break;
      case 1: a.number = r.hi; break;
      case 2: a.number = r.lo - 1; break;
      case 3: a.number = r.hi + 1; break;
      case 4:
        a.value = *rc::gen::elementOf(std::vector<std::string>{"+5", "5ms", "0x10", "abc", "1.5"});
        return a;
      case 5: a.number = 0; break;
      default: {
        const Int small = *rc::gen::inRange(-3000, 100000);
        a.number = small;
      }
    }
    a.value = decimal(*a.number);
    return a;
  });
}

// The docs' verdict: the first word that breaks the grammar (empty when the command is accepted).
std::string first_offender(const std::vector<Arg>& args, bool value_dropped_at_end) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const Arg& a = args[i];
    const auto rule = std::find_if(rules().begin(), rules().end(),
                                   [&](const Rule& r) { return r.word == a.word; });
    if (rule == rules().end()) return a.word;  // unknown, searchmoves, mate
    if (rule->flag) continue;
    const bool last = i + 1 == args.size();
    if (last && value_dropped_at_end) return a.word;
    if (!a.number || *a.number < rule->lo || *a.number > rule->hi) return a.word;
  }
  return "";
}

struct Drawn {
  std::vector<Arg> args;
  bool drop_last_value = false;
  std::string text;
};

rc::Gen<Drawn> gen_command() {
  return rc::gen::exec([] {
    Drawn d;
    // Each row of the table with probability 1/3, then in a random order.
    const auto picked = *rc::gen::container<std::vector<bool>>(rules().size(),
                                                               rc::gen::weightedElement<bool>(
                                                                   {{1, true}, {2, false}}));
    std::vector<std::size_t> perm;
    for (std::size_t i = 0; i < picked.size(); ++i)
      if (picked[i]) perm.push_back(i);
    for (std::size_t i = perm.size(); i > 1; --i)
      std::swap(perm[i - 1], perm[std::size_t(*rc::gen::inRange<std::size_t>(0, i))]);
    for (std::size_t i : perm) d.args.push_back(*gen_arg(rules()[i]));
    if (*rc::gen::weightedElement<bool>({{1, true}, {6, false}})) {
      const std::string odd = *rc::gen::elementOf(
          std::vector<std::string>{"dpeth", "searchmoves", "mate", "Depth", "time"});
      const std::size_t at = *rc::gen::inRange<std::size_t>(0, d.args.size() + 1);
      d.args.insert(d.args.begin() + std::ptrdiff_t(at), Arg{odd, std::nullopt, std::nullopt});
    }
    d.drop_last_value = !d.args.empty() && *rc::gen::weightedElement<bool>({{1, true}, {8, false}});
    for (std::size_t i = 0; i < d.args.size(); ++i) {
      const Arg& a = d.args[i];
      d.text += (d.text.empty() ? "" : " ") + a.word;
      if (a.value && !(i + 1 == d.args.size() && d.drop_last_value)) d.text += " " + *a.value;
    }
    return d;
  });
}

// The limits the docs give an accepted command.
struct Expected {
  search::Limits limits;
  int perft_depth = -1;
};

Expected expected_limits(const std::vector<Arg>& args) {
  Expected e;
  search::Limits& l = e.limits;
  bool zero_limit = false;
  for (const Arg& a : args) {
    if (a.word == "infinite" || a.word == "ponder") {
      l.infinite = true;
      continue;
    }
    const Int v = *a.number;
    if (a.word == "depth") l.depth = int(v), zero_limit = zero_limit || v == 0;
    if (a.word == "movetime") l.movetime_ms = int(v), zero_limit = zero_limit || v == 0;
    if (a.word == "nodes") l.nodes = std::uint64_t(v), zero_limit = zero_limit || v == 0;
    if (a.word == "wtime") l.time_ms[WHITE] = v < 0 ? 0 : int(v);
    if (a.word == "btime") l.time_ms[BLACK] = v < 0 ? 0 : int(v);
    if (a.word == "winc") l.inc_ms[WHITE] = int(v);
    if (a.word == "binc") l.inc_ms[BLACK] = int(v);
    if (a.word == "movestogo") l.movestogo = int(v);
    if (a.word == "perft") e.perft_depth = int(v);
  }
  if (zero_limit) l.depth = 1;
  return e;
}

}  // namespace

// MODEL uci-go-arguments
// checks: engine/src/uci/go_command.cpp  (which go commands are refused, and the limits of the rest)
// contract: docs/uci.md#the-go-commands-arguments
// planted: ci/mutants/model-uci-go-arguments.patch  (a negative btime kept, not counted as 0)
TEST_CASE("model: go arguments are refused or read as the table in docs/uci.md says",
          "[uci][model]") {
  rc::prop("parse_go agrees with the table on generated commands", [] {
    const Drawn d = *gen_command();
    RC_LOG() << "go " << d.text << "\n";
    std::istringstream in(d.text);
    const uci::GoCommand got = uci::parse_go(in);
    const std::string offender = first_offender(d.args, d.drop_last_value);
    RC_CLASSIFY(offender.empty(), "accepted");
    if (!offender.empty()) {
      RC_ASSERT(!got.error.empty());
      // The error names the first word that breaks the grammar, quoted ('dpeth' or 'go depth').
      RC_ASSERT(got.error.find("'" + offender + "'") != std::string::npos ||
                got.error.find("'go " + offender + "'") != std::string::npos);
      return;
    }
    RC_ASSERT(got.error.empty());
    const Expected want = expected_limits(d.args);
    const search::Limits& g = got.limits;
    const search::Limits& w = want.limits;
    RC_ASSERT(g.depth == w.depth);
    RC_ASSERT(g.nodes == w.nodes);
    RC_ASSERT(g.movetime_ms == w.movetime_ms);
    RC_ASSERT(g.time_ms[WHITE] == w.time_ms[WHITE]);
    RC_ASSERT(g.time_ms[BLACK] == w.time_ms[BLACK]);
    RC_ASSERT(g.inc_ms[WHITE] == w.inc_ms[WHITE]);
    RC_ASSERT(g.inc_ms[BLACK] == w.inc_ms[BLACK]);
    RC_ASSERT(g.movestogo == w.movestogo);
    RC_ASSERT(g.infinite == w.infinite);
    RC_ASSERT(got.perft_depth == want.perft_depth);
  });
}
