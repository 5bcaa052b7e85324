#include <catch2/catch.hpp>

#include "notation.h"
#include "position.h"
#include "search/search.h"

using namespace stk;

namespace {
search::Result search_fen(const std::string& fen, int depth, std::uint64_t nodes = 0) {
  Position pos;
  REQUIRE_FALSE(pos.set(fen));
  search::Searcher s;
  search::Limits l;
  l.depth = depth;
  l.nodes = nodes;
  return s.go(pos, l);
}
}  // namespace

TEST_CASE("search finds forced mates and scores them as mate", "[search]") {
  struct Case {
    const char* fen;
    const char* best;
    int mate_in;
  };
  const Case cases[] = {
      {"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "a1a8", 1},
      {"r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "h5f7", 1},
      {"6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", "g2g1", 2},
      {"r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", "f8c5", 3},
  };
  for (const Case& c : cases) {
    auto r = search_fen(c.fen, 2 * c.mate_in + 4);
    INFO(c.fen);
    CHECK(to_uci(r.best) == c.best);
    CHECK(search::score_to_uci(r.score) == "mate " + std::to_string(c.mate_in));
  }
  // Being mated is reported with a negative mate distance.
  auto r = search_fen("6k1/5ppp/8/8/8/8/r4PPP/6K1 w - - 0 1",
                      6);  // white to move, black threatens Ra1#
  CHECK(r.score < 200);
}

TEST_CASE("stalemate and the fifty-move rule score as draws", "[search]") {
  auto stalemate = search_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 5);
  CHECK(stalemate.best == Move::none());
  CHECK(stalemate.score == 0);
  // KR vs K is winning, but with the clock at 99 any quiet move ends the game drawn.
  auto fifty = search_fen("8/8/8/4k3/8/8/8/R3K3 w - - 99 80", 6);
  CHECK(fifty.score == 0);
  auto winning = search_fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 80", 6);
  CHECK(winning.score > 300);
}

TEST_CASE("repetitions are draws: twofold inside the tree, threefold before the root", "[search]") {
  Position pos;
  REQUIRE_FALSE(pos.set(Position::kStartFen));
  for (const char* m : {"g1f3", "g8f6", "f3g1", "f6g8"}) pos.make_move(*parse_uci(pos, m));
  CHECK(pos.has_repeated());
  CHECK(pos.is_draw(8));        // inside the search tree: the first repetition suffices
  CHECK_FALSE(pos.is_draw(0));  // before the root: only one earlier occurrence
  for (const char* m : {"g1f3", "g8f6", "f3g1", "f6g8"}) pos.make_move(*parse_uci(pos, m));
  CHECK(pos.is_draw(0));  // threefold
}

TEST_CASE("go nodes N stops at N nodes at most, reproducibly", "[search]") {
  const char* fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
  for (std::uint64_t n : {1ULL, 100ULL, 5000ULL, 30000ULL}) {
    auto a = search_fen(fen, 0, n);
    auto b = search_fen(fen, 0, n);
    INFO(n);
    CHECK(a.nodes <= n);
    CHECK(a.nodes == b.nodes);
    CHECK(a.best == b.best);
    CHECK(a.pv == b.pv);
    CHECK(a.best != Move::none());
  }
  CHECK(search_fen(fen, 0, 30000).nodes == 30000);
}

TEST_CASE("fixed-depth search is deterministic from a cleared state", "[search]") {
  const char* fen = "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19";
  auto a = search_fen(fen, 8), b = search_fen(fen, 8);
  CHECK(a.nodes == b.nodes);
  CHECK(a.pv == b.pv);
  CHECK(a.score == b.score);
  REQUIRE(a.iterations.size() == 8);
  for (std::size_t i = 0; i < a.iterations.size(); ++i) CHECK(a.iterations[i].depth == int(i + 1));
}
