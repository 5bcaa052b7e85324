#include <catch2/catch.hpp>

#include "bitboard.h"

using namespace stk;

TEST_CASE("slider attack tables match the ray walk on pseudo-random occupancies", "[bitboard]") {
  std::uint64_t s = 12345;
  auto next = [&s] {
    s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
    return s * 2685821657736338717ULL;
  };
  for (int i = 0; i < 20000; ++i) {
    Bitboard occ = next() & next();
    Square sq = Square(next() % 64);
    REQUIRE(rook_attacks(sq, occ) == sliding_attacks_reference(ROOK, sq, occ));
    REQUIRE(bishop_attacks(sq, occ) == sliding_attacks_reference(BISHOP, sq, occ));
  }
}

TEST_CASE("leaper tables", "[bitboard]") {
  CHECK(popcount(knight_attacks(parse_square("a1"))) == 2);
  CHECK(popcount(knight_attacks(parse_square("d4"))) == 8);
  CHECK(popcount(king_attacks(parse_square("h8"))) == 3);
  CHECK(pawn_attacks(WHITE, parse_square("e4")) ==
        (square_bb(parse_square("d5")) | square_bb(parse_square("f5"))));
  CHECK(pawn_attacks(BLACK, parse_square("a5")) == square_bb(parse_square("b4")));
}

TEST_CASE("between and line tables", "[bitboard]") {
  Square a1 = parse_square("a1"), h8 = parse_square("h8"), c3 = parse_square("c3");
  CHECK(popcount(between_bb(a1, h8)) == 7);  // six between, plus h8 itself
  CHECK(between_bb(a1, h8) & square_bb(c3));
  CHECK(aligned(a1, h8, c3));
  CHECK_FALSE(aligned(a1, h8, parse_square("c4")));
  CHECK(between_bb(a1, parse_square("b3")) == square_bb(parse_square("b3")));  // not aligned
}
