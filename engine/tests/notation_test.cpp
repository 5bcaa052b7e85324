#include <catch2/catch.hpp>

#include "notation.h"
#include "test_support.h"

using namespace stk;

namespace {
std::string san_of(const std::string& fen, const std::string& uci) {
  Position p;
  REQUIRE_FALSE(p.set(fen));
  auto m = parse_uci(p, uci);
  REQUIRE(m);
  return to_san(p, *m);
}
}  // namespace

TEST_CASE("SAN: disambiguation, captures, promotions, castling, suffixes", "[san]") {
  CHECK(san_of(Position::kStartFen, "g1f3") == "Nf3");
  CHECK(san_of(Position::kStartFen, "e2e4") == "e4");
  // Two knights reach d2: file disambiguation.
  CHECK(san_of("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2") == "Nbd2");
  // Two rooks on one file: rank disambiguation.
  CHECK(san_of("4k3/R7/8/8/8/8/R7/4K3 w - - 0 1", "a2a5") == "R2a5");
  // Three queens: full square.
  CHECK(san_of("8/7k/8/8/8/Q1Q5/8/Q3K3 w - - 0 1", "a3b2") == "Qa3b2");
  CHECK(san_of("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1") == "O-O");
  CHECK(san_of("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1") == "O-O-O");
  CHECK(san_of("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q") == "b8=Q+");
  CHECK(san_of("2n1k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7c8n") == "bxc8=N");
  CHECK(san_of("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6") == "exf6");
  CHECK(san_of("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8") == "Ra8#");
}

TEST_CASE("SAN parsing accepts common variants and rejects junk", "[san]") {
  Position p;
  REQUIRE_FALSE(p.set(Position::kStartFen));
  CHECK(parse_san(p, "Nf3"));
  CHECK(parse_san(p, "Ngf3"));   // over-disambiguated
  CHECK(parse_san(p, "Ng1f3"));  // fully qualified
  CHECK(parse_san(p, "e4+"));    // spurious suffix
  CHECK_FALSE(parse_san(p, "Nf4"));
  CHECK_FALSE(parse_san(p, "e5"));
  CHECK_FALSE(parse_san(p, "O-O"));
  CHECK_FALSE(parse_san(p, ""));
  Position q;
  REQUIRE_FALSE(q.set("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"));
  CHECK(parse_san(q, "b8Q"));
  CHECK(parse_san(q, "b8=N"));
  Position r;
  REQUIRE_FALSE(r.set("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
  CHECK(parse_san(r, "0-0"));
}

TEST_CASE("SAN round trip over every legal move of the tricky positions", "[san]") {
  for (const auto& fen : test::tricky_fens()) {
    Position p;
    REQUIRE_FALSE(p.set(fen));
    for (const ExtMove& e : MoveList(p)) {
      std::string san = to_san(p, e.move);
      auto back = parse_san(p, san);
      INFO(fen << " " << san);
      REQUIRE(back);
      CHECK(*back == e.move);
      CHECK(parse_uci(p, to_uci(e.move)) == e.move);
    }
  }
}
