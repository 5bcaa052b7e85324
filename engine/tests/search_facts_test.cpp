// Search facts the bench signature cannot see: principal variations legal and consistent with
// their score when the table is kept between searches.
// (The independent oracle for the same facts is python-chess: harness/python/tests/test_uci_search.py.)
#include <catch2/catch.hpp>

#include <sstream>

#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "search/search.h"
#include "search/worker.h"

using namespace stk;

namespace {

// "" when `pv` is legal from `fen` and ends as its score says: a PV scored mate N (N > 0) ends in
// checkmate after exactly 2N-1 plies, mate -N after 2N plies; no move after a game end.
std::string pv_problem(const std::string& fen, const std::vector<Move>& pv, int score) {
  Position pos;
  if (auto err = pos.set(fen)) return "bad fen: " + *err;
  std::ostringstream line;
  for (Move m : pv) {
    if (MoveList(pos).size() == 0)
      return "move " + to_uci(m) + " after the game ended: " + line.str();
    if (!MoveList(pos).contains(m)) return "illegal move " + to_uci(m) + " after: " + line.str();
    line << to_uci(m) << " ";
    pos.make_move(m);
  }
  const std::string uci = search::score_to_uci(score);
  if (uci.rfind("mate ", 0) != 0) return "";
  const int n = std::stoi(uci.substr(5));
  const std::size_t plies = std::size_t(n > 0 ? 2 * n - 1 : -2 * n);
  const bool mated = MoveList(pos).size() == 0 && pos.in_check();
  if (pv.size() != plies || !mated)
    return "score " + uci + " but the PV (" + line.str() + ") has " + std::to_string(pv.size()) +
           " plies and ends " + (mated ? "in checkmate" : "without checkmate");
  return "";
}

void check_every_iteration(const std::string& fen, const search::Result& r) {
  REQUIRE_FALSE(r.iterations.empty());
  for (const search::Iteration& it : r.iterations) {
    INFO(fen << " depth " << it.depth);
    CHECK(pv_problem(fen, it.pv, it.score) == "");
  }
}

}  // namespace

TEST_CASE("search: a PV after a previous search never runs past checkmate", "[search][pv]") {
  // The audit's reproducer: the second search, table kept, printed "pv f8g8 g5f7 d8g8 g5e4 f5e4".
  const std::string first = "r2q1r1k/2p1b1pp/p1n5/1p1Q1bN1/4n3/1BP1B3/PP3PPP/R4RK1 w - - 0 1";
  const std::string second = "r2q1rQk/2p1b1pp/p1n5/1p3bN1/4n3/1BP1B3/PP3PPP/R4RK1 b - - 1 1";
  search::Searcher searcher;
  search::Limits limits;
  limits.nodes = 200000;
  for (const std::string& fen : {first, second}) {
    Position pos;
    REQUIRE_FALSE(pos.set(fen));
    check_every_iteration(fen, searcher.go(pos, limits));
  }
}

// Mate scores live in the table relative to the node that stored them (value_to_tt and
// value_from_tt). The printed scores cannot show a slip there: PV nodes never take a table
// cut-off and re-search every move that raises alpha, so the UCI tests recompute every printed
// mate from the PV's own leaves. A non-PV node answering from the table is where it shows.
TEST_CASE("search: a mate score from the table is its distance from the probing node",
          "[search][tt]") {
  const std::string fen =
      "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";  // mate in 2
  search::FreshSearch fresh(16);
  search::NoPolicy policy;
  Position pos;
  REQUIRE_FALSE(pos.set(fen));
  const search::Result r = fresh.run(pos, policy, 6, 0);  // stores the root: mate in 3 plies, exact
  REQUIRE(r.score == search::mate_in(3));

  // The same position reached deeper in a later search: a null-window node at ply 2 and at ply 4.
  search::Worker<search::NoPolicy> worker(fresh.tt, *fresh.heuristics, fresh.evaluator, policy);
  for (int ply : {2, 4}) {
    std::vector<search::StackEntry> stack(search::kMaxPly + 10);
    for (std::size_t i = 0; i < stack.size(); ++i) stack[i].ply = int(i) - 4;
    search::StackEntry* ss = stack.data() + 4 + ply;
    fresh.evaluator.reset(pos);
    const int expected = search::mate_in(ply + 3);
    const std::uint64_t nodes_before = worker.nodes();
    const int v = worker.search<false>(pos, ss, expected - 1, expected, 6, false);
    INFO("probed at ply " << ply << ": mate " << search::kValueMate - v
                          << " plies from the root, expected " << search::kValueMate - expected);
    CHECK(v == expected);
    CHECK(worker.nodes() == nodes_before + 1);  // answered by the table at the node itself
  }
}

TEST_CASE("search: being mated scores mate -N, both colours", "[search][mate]") {
  struct Case {
    const char* fen;
    const char* first;  // the attacker's first move: the defender is then to move
    const char* score;
  };
  const Case cases[] = {
      {"r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", "d5f6",
       "mate -1"},                                                                // black mated
      {"6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", "g2g1", "mate -1"},  // white mated
      {"r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", "f8c5",
       "mate -2"},                                                   // white
      {"r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", "f6a6", "mate -2"},  // black
  };
  for (const Case& c : cases) {
    Position pos;
    REQUIRE_FALSE(pos.set(c.fen));
    pos.make_move(*parse_uci(pos, c.first));
    const std::string fen = pos.fen();
    search::Searcher searcher;
    search::Limits limits;
    limits.depth = 10;
    const search::Result r = searcher.go(pos, limits);
    INFO(fen);
    CHECK(search::score_to_uci(r.score) == c.score);
    check_every_iteration(fen, r);
  }
}
