// An independent model of what a search's info lines leave for a match's PGN comment
// (selfplay::thought_from), written from docs/harnesses/match.md#self-play and uci_player.h: the
// score of the last line with a score, the depth and the nodes of the last scored lines that have
// them, read forwards over generated lines whose fields come in any order.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "commands/match/uci_player.h"

namespace thought_model {

// One generated info line, as fields; shuffled_text writes it.
struct Line {
  enum class Kind { Cp, Mate, None, String } kind = Kind::Cp;
  int score = 0;
  std::optional<int> depth;
  std::optional<std::uint64_t> nodes;
  bool bad_nodes = false;  // "nodes abc": no nodes
  std::string bound;       // "", "lowerbound", "upperbound"
  std::vector<int> order;  // the order of the fields after "info"

  std::string bound_text() const { return bound.empty() ? "" : " " + bound; }
};

// The fields of a line in a shuffled order (the shuffle is the generator's, not the text's).
std::string shuffled_text(Line l) {
  if (l.kind == Line::Kind::String) return "info string the score is " + std::to_string(l.score);
  std::vector<std::string> fields;
  if (l.depth) fields.push_back("depth " + std::to_string(*l.depth));
  if (l.kind == Line::Kind::Cp)
    fields.push_back("score cp " + std::to_string(l.score) + l.bound_text());
  if (l.kind == Line::Kind::Mate)
    fields.push_back("score mate " + std::to_string(l.score) + l.bound_text());
  if (l.nodes) fields.push_back("nodes " + std::to_string(*l.nodes));
  if (l.bad_nodes) fields.push_back("nodes abc");
  fields.push_back("nps 1000 time 3");
  std::string out = "info";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::size_t j = i + std::size_t(l.order[i]) % (fields.size() - i);
    std::swap(fields[i], fields[j]);
    out += " " + fields[i];
  }
  return out + " pv e2e4 e7e5";  // pv last: it takes every word after it
}

rc::Gen<Line> line_gen() {
  return rc::gen::exec([] {
    Line l;
    l.kind = *rc::gen::weightedElement<Line::Kind>({{6, Line::Kind::Cp},
                                                    {2, Line::Kind::Mate},
                                                    {1, Line::Kind::None},
                                                    {1, Line::Kind::String}});
    l.score = l.kind == Line::Kind::Mate ? *rc::gen::inRange(-20, 21)
                                         : *rc::gen::inRange(-3000, 3001);
    if (*rc::gen::inRange(0, 4)) l.depth = *rc::gen::inRange(1, 64);
    const int n = *rc::gen::inRange(0, 5);
    if (n >= 2) l.nodes = *rc::gen::inRange<std::uint64_t>(0, 5'000'000'000ULL);
    l.bad_nodes = n == 0;
    l.bound = *rc::gen::element<std::string>("", "", "lowerbound", "upperbound");
    l.order = *rc::gen::container<std::vector<int>>(5, rc::gen::inRange(0, 100));
    return l;
  });
}

// Reading every line in order: each scored line overwrites the score, and the depth and nodes
// when it has them.
stk::harness::selfplay::Thought expected(const std::vector<Line>& lines) {
  stk::harness::selfplay::Thought t;
  for (const Line& l : lines) {
    if (l.kind != Line::Kind::Cp && l.kind != Line::Kind::Mate) continue;
    if (l.kind == Line::Kind::Cp) t.score_cp = l.score, t.mate.reset();
    else {
      t.mate = l.score;
      // mate as +-(100000 - moves): mated (0 or fewer moves) is the negative side
      t.score_cp = l.score > 0 ? 100000 - l.score : -(100000 - (-l.score));
    }
    if (l.depth) t.depth = *l.depth;
    if (l.nodes) t.nodes = *l.nodes;
  }
  return t;
}

}  // namespace thought_model

// MODEL match-thought
// checks: harness/src/commands/match/uci_player.cpp  (the score, depth and nodes a search's info lines leave for the PGN comment)
// contract: docs/harnesses/match.md#self-play
// planted: ci/mutants/model-match-thought.patch  (the nodes of the last scored line, even when it has none)
TEST_CASE("model: a PGN comment carries what the last scored info lines leave", "[model][match]") {
  using namespace thought_model;
  rc::prop("generated info lines, fields in any order", [] {
    const auto lines = *rc::gen::container<std::vector<Line>>(line_gen());
    std::vector<std::string> texts;
    for (const Line& l : lines) texts.push_back(shuffled_text(l));
    const auto got = stk::harness::selfplay::thought_from(texts);
    const auto want = expected(lines);
    RC_ASSERT(got.score_cp == want.score_cp);
    RC_ASSERT(got.mate == want.mate);
    RC_ASSERT(got.depth == want.depth);
    RC_ASSERT(got.nodes == want.nodes);
    RC_ASSERT(got.move.empty());
    RC_ASSERT(got.elapsed_ms == 0);
  });
}

TEST_CASE("a PGN comment's nodes come from the last scored line that has them", "[match]") {
  // The last scored line of a search without nodes (an engine that prints them on some lines
  // only): the nodes are the last ones printed, not none, and not those of an unscored line.
  const auto t = stk::harness::selfplay::thought_from({
      "info depth 9 score cp 20 nodes 900 pv e2e4",
      "info depth 10 currmove e2e4 nodes 1200",
      "info depth 10 score cp 31 pv e2e4",
  });
  CHECK(t.score_cp == 31);
  CHECK(t.depth == 10);
  CHECK(t.nodes == std::optional<std::uint64_t>(900));
}
