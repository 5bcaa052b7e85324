// Independent model of the UCI `position` command's move list (docs/uci.md "Errors"): a list of
// legal moves is played in order; the first word that is no legal move refuses the command, the
// reason naming that word, its index in the list (from 1) and the position it was tried in.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <sstream>
#include <string>
#include <vector>

#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "uci/position_command.h"

// MODEL uci-position-move-list
// checks: engine/src/uci/position_command.cpp  (the move list played, and the refused move named by its index)
// contract: docs/uci.md#behaviour
// planted: ci/mutants/uci-position-move-index-counted-down.patch  (the refused move's index counted down)
TEST_CASE("position plays its move list and names a refused move by its index", "[uci][model]") {
  rc::prop("random legal games with one bad word put anywhere", [] {
    // A game of legal moves from the start, each drawn among the legal ones.
    stk::Position played;
    REQUIRE_FALSE(played.set(stk::Position::kStartFen));
    std::vector<std::string> moves, fens{played.fen()};
    const auto picks = *rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 1000));
    for (int pick : picks) {
      stk::MoveList list(played);
      if (list.size() == 0) break;
      const stk::Move m = list.begin()[std::size_t(pick) % list.size()].move;
      moves.push_back(stk::to_uci(m));
      played.make_move(m);
      fens.push_back(played.fen());
    }
    // The whole list plays to the position reached.
    std::string words = "startpos moves";
    for (const std::string& m : moves) words += " " + m;
    std::istringstream all(words);
    stk::Position out;
    RC_ASSERT(!stk::uci::parse_position(all, out).has_value());
    RC_ASSERT(out.fen() == fens.back());

    // A word that is no legal move there (a null move, a move of no piece, garbage), put at
    // index k: refused naming it, k, and the position after the k - 1 moves before it.
    const std::size_t k = *rc::gen::inRange<std::size_t>(1, moves.size() + 2);
    const std::string bad = *rc::gen::element<std::string>("0000", "a3a3", "zz9", "e2e4e");
    std::string listed = "startpos moves";
    for (std::size_t i = 1; i < k; ++i) listed += " " + moves[i - 1];
    listed += " " + bad;
    for (std::size_t i = k; i < moves.size(); ++i) listed += " " + moves[i];
    std::istringstream refused(listed);
    const auto why = stk::uci::parse_position(refused, out);
    RC_ASSERT(why.has_value());
    RC_ASSERT(*why == "illegal move '" + bad + "' (move " + std::to_string(k) +
                          " of the list) in " + fens[k - 1]);
  });
}
