#include <catch2/catch.hpp>

#include "perft.h"
#include "test_support.h"

using namespace stk;

TEST_CASE("perft of well-known positions", "[perft]") {
  struct Case {
    const char* fen;
    int depth;
    std::uint64_t nodes;
  };
  const Case cases[] = {
      {Position::kStartFen, 4, 197281},
      {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 97862},
      {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674624},
      {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4, 422333},
      {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 62379},
      {"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3, 89890},
  };
  for (const Case& c : cases) {
    Position p;
    REQUIRE_FALSE(p.set(c.fen));
    INFO(c.fen);
    CHECK(perft(p, c.depth) == c.nodes);
  }
}

TEST_CASE("en passant that would expose the king along the rank is not generated", "[movegen]") {
  Position p;
  REQUIRE_FALSE(p.set("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1"));
  for (const ExtMove& e : MoveList(p)) CHECK(e.move.kind() != EN_PASSANT);
  REQUIRE_FALSE(p.set("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1"));  // capturing the checker is legal
  bool found = false;
  for (const ExtMove& e : MoveList(p)) found |= e.move.kind() == EN_PASSANT;
  CHECK(found);
}

TEST_CASE("castling through an attacked square is not generated", "[movegen]") {
  Position p;
  REQUIRE_FALSE(p.set("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1"));  // f2 rook hits f1
  for (const ExtMove& e : MoveList(p))
    if (e.move.kind() == CASTLING) CHECK(e.move.to() != parse_square("g1"));
}

TEST_CASE("gives_check agrees with making the move", "[movegen]") {
  for (const auto& fen : test::tricky_fens()) {
    Position p;
    REQUIRE_FALSE(p.set(fen));
    for (const ExtMove& e : MoveList(p)) {
      bool predicted = p.gives_check(e.move);
      p.make_move(e.move);
      INFO(fen << " " << int(e.move.raw()));
      CHECK(predicted == p.in_check());
      p.unmake_move();
    }
  }
}
