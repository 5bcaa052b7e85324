// Search facts the bench signature cannot see: principal variations legal and consistent with
// their score when the table is kept between searches.
// (The independent oracle for the same facts is python-chess: harness/python/tests/test_uci_search.py.)
#include <catch2/catch.hpp>

#include <sstream>

#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "search/search.h"

using namespace stk;

namespace {

// "" when `pv` is legal from `fen` and ends as its score says: a PV scored mate N (N > 0) ends in
// checkmate after exactly 2N-1 plies, mate -N after 2N plies; no move after a game end.
std::string pv_problem(const std::string& fen, const std::vector<Move>& pv, int score) {
  Position pos;
  if (auto err = pos.set(fen)) return "bad fen: " + *err;
  std::ostringstream line;
  for (Move m : pv) {
    if (MoveList(pos).size() == 0) return "move " + to_uci(m) + " after the game ended: " + line.str();
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
