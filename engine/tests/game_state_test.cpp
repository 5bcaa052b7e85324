// Game state that perft counts cannot see: castling rights, en-passant square, halfmove clock and
// fullmove number against an oracle tracked from the moves played; make/unmake/null restoring all
// of it; the fifty-move rule against mate; repetitions and the null-move window.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include "game_state_oracle.h"
#include "notation.h"
#include "search/search.h"
#include "test_support.h"

using namespace stk;

namespace {

// Everything make/unmake must give back.
struct Snapshot {
  std::string fen;
  Key key, pawn_key;
  int rule50, plies_from_null, game_ply, castling, ply_count;
  Square ep;
  Bitboard checkers, blockers_w, blockers_b;
  explicit Snapshot(const Position& p)
      : fen(p.fen()),
        key(p.key()),
        pawn_key(p.pawn_key()),
        rule50(p.rule50()),
        plies_from_null(p.state().plies_from_null),
        game_ply(p.game_ply()),
        castling(p.castling_rights()),
        ply_count(p.ply_count()),
        ep(p.ep_square()),
        checkers(p.checkers()),
        blockers_w(p.blockers_for_king(WHITE)),
        blockers_b(p.blockers_for_king(BLACK)) {}
  bool operator==(const Snapshot&) const = default;
};

Position at(const std::string& fen, std::initializer_list<const char*> moves = {}) {
  Position pos;
  REQUIRE_FALSE(pos.set(fen));
  for (const char* m : moves) {
    auto mv = parse_uci(pos, m);
    REQUIRE(mv);
    pos.make_move(*mv);
  }
  return pos;
}

}  // namespace

TEST_CASE("game state follows the rules after every move and make/unmake/null restore it",
          "[gamestate][property]") {
  rc::prop(
      "oracle agreement, key and consistency after every move; unmake and unmake_null restore all",
      [] {
        const std::string start = *rc::gen::elementOf(test::oracle_start_fens());
        Position pos;
        RC_ASSERT(!pos.set(start));
        auto state = test::GameStateOracle::from_fen(start);
        RC_ASSERT(state.differs(pos) == "");
        for (int c : *rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 1 << 20))) {
          MoveList list(pos);
          if (list.size() == 0) break;
          const Snapshot before(pos);
          if (c % 5 == 0 && !pos.in_check()) {  // a null move on the way, as the search makes them
            auto after_null = state;
            after_null.play_null();
            pos.make_null();
            RC_ASSERT(after_null.differs(pos) == "");
            RC_ASSERT(pos.key() == pos.compute_key());
            RC_ASSERT(!pos.has_repeated());  // nothing before a null move counts
            pos.unmake_null();
            RC_ASSERT(Snapshot(pos) == before);
          }
          Move m = list.begin()[std::size_t(c) % list.size()].move;
          state.play(pos, m);
          pos.make_move(m);
          std::string why;
          RC_ASSERT(pos.is_ok(&why));
          RC_ASSERT(pos.key() == pos.compute_key());
          RC_ASSERT(state.differs(pos) == "");
          const Snapshot after(pos);
          pos.unmake_move();
          RC_ASSERT(Snapshot(pos) == before);
          pos.make_move(m);
          RC_ASSERT(Snapshot(pos) == after);
        }
      });
}

TEST_CASE("castling rights go with king moves, rook moves and rooks captured on their corners",
          "[gamestate]") {
  const std::string fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
  CHECK(at(fen, {"a1a8"}).castling_rights() == (WHITE_OO | BLACK_OO));  // rook takes rook
  CHECK(at(fen, {"h1h8"}).castling_rights() == (WHITE_OOO | BLACK_OOO));
  CHECK(at(fen, {"e1f1"}).castling_rights() == (BLACK_OO | BLACK_OOO));  // king moved
  CHECK(at(fen, {"e1g1"}).castling_rights() == (BLACK_OO | BLACK_OOO));  // castled
  CHECK(at(fen, {"a1b1", "h8g8"}).castling_rights() == (WHITE_OO | BLACK_OOO));
  CHECK(at(fen, {"a1b1", "e8d8", "b1a1"}).castling_rights() ==
        WHITE_OO);  // a rook back is no right
  // A bishop takes the rook on h1: white loses the short right though no white piece moved.
  CHECK(at("r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1", {"g2h1"}).castling_rights() ==
        (WHITE_OOO | BLACK_OO | BLACK_OOO));
  // Every change of rights changes the key exactly as a recompute does.
  for (const char* m : {"a1a8", "h1h8", "e1f1", "e1g1", "e1c1", "a1a2"}) {
    Position p = at(fen, {m});
    INFO(m);
    CHECK(p.key() == p.compute_key());
  }
}

TEST_CASE("halfmove clock and fullmove number", "[gamestate]") {
  const std::string fen = "r3k2r/p6p/8/8/8/8/7P/R3K2R b KQkq - 12 30";
  Position p = at(fen, {"a8b8"});
  CHECK(p.fen() == "1r2k2r/p6p/8/8/8/8/7P/R3K2R w KQk - 13 31");  // black moved: 31
  CHECK(at(fen, {"a8b8", "a1a7"}).fen() == "1r2k2r/R6p/8/8/8/8/7P/4K2R b Kk - 0 31");  // capture
  CHECK(at(fen, {"a8b8", "a1a7", "h7h6"}).rule50() == 0);                              // pawn move
  CHECK(at(fen, {"a8b8", "a1a7", "e8d8"}).rule50() == 1);
  p = at(fen, {"a8b8", "a1a7", "h7h5"});  // double push: the square is written, capturable or not
  CHECK(p.fen() == "1r2k2r/R7/8/7p/8/8/7P/4K2R w Kk h6 0 32");
  p.unmake_move();
  p.unmake_move();
  CHECK(p.fen() == "1r2k2r/p6p/8/8/8/8/7P/R3K2R w KQk - 13 31");
  p.unmake_move();
  CHECK(p.fen() == fen);
}

TEST_CASE("the fifty-move rule yields to mate on the 100th half-move", "[gamestate]") {
  Position mate = at("7k/8/6K1/8/8/8/8/R7 w - - 99 80", {"a1a8"});
  CHECK(mate.rule50() == 100);
  CHECK(MoveList(mate).size() == 0);
  CHECK_FALSE(mate.is_draw(0));
  CHECK_FALSE(mate.is_draw(5));
  CHECK(at("7k/8/6K1/8/8/8/8/R7 w - - 99 80", {"a1b1"}).is_draw(0));
  CHECK(at("7k/8/5K2/8/8/8/8/R7 w - - 99 80", {"a1a8"}).is_draw(0));  // check, not mate: a draw
  CHECK_FALSE(at("7k/8/6K1/8/8/8/8/R7 w - - 98 80", {"a1b1"}).is_draw(0));
  // The search scores the mate as a mate, not as the draw the clock would otherwise make it.
  search::Searcher s;
  search::Limits l;
  l.depth = 3;
  Position root = at("7k/8/6K1/8/8/8/8/R7 w - - 99 80");
  auto r = s.go(root, l);
  CHECK(to_uci(r.best) == "a1a8");
  CHECK(search::score_to_uci(r.score) == "mate 1");
}

TEST_CASE("repetitions are not counted across a null move", "[gamestate]") {
  const std::string fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
  // The rook's triangle and the king's round trip bring back the start placement with white to
  // move after a null move: six plies, and a null in between, so not a repetition.
  Position p = at(fen, {"a1a2", "e8d8", "a2a3", "d8e8", "a3a1"});
  p.make_null();
  CHECK(p.key() == at(fen).key());
  CHECK_FALSE(p.has_repeated());
  CHECK_FALSE(p.is_draw(100));
  // Without the null the same placement is a repetition (twofold in the tree).
  Position q = at(fen, {"a1a2", "e8d8", "a2a1", "d8e8"});
  CHECK(q.has_repeated());
  CHECK(q.is_draw(100));
  CHECK_FALSE(q.is_draw(0));
}
