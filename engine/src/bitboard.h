// Bitboard helpers and attack tables (magic bitboards, or PEXT where BMI2 is compiled in).
#pragma once

#include <bit>
#include <string>

#include "types.h"

#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace stk {

constexpr Bitboard FILE_A_BB = 0x0101010101010101ULL;
constexpr Bitboard FILE_H_BB = FILE_A_BB << 7;
constexpr Bitboard RANK_1_BB = 0xFFULL;
constexpr Bitboard RANK_8_BB = RANK_1_BB << 56;

constexpr Bitboard square_bb(Square s) { return 1ULL << s; }
constexpr Bitboard file_bb(int f) { return FILE_A_BB << f; }
constexpr Bitboard rank_bb(int r) { return RANK_1_BB << (8 * r); }

inline int popcount(Bitboard b) { return std::popcount(b); }
inline Square lsb(Bitboard b) { return Square(std::countr_zero(b)); }
inline Square msb(Bitboard b) { return Square(63 - std::countl_zero(b)); }
inline Square pop_lsb(Bitboard& b) {
  Square s = lsb(b);
  b &= b - 1;
  return s;
}
constexpr bool more_than_one(Bitboard b) { return b & (b - 1); }

template <int D>
constexpr Bitboard shift(Bitboard b) {
  if constexpr (D == 8) return b << 8;
  if constexpr (D == -8) return b >> 8;
  if constexpr (D == 16) return b << 16;
  if constexpr (D == -16) return b >> 16;
  if constexpr (D == 1) return (b & ~FILE_H_BB) << 1;
  if constexpr (D == -1) return (b & ~FILE_A_BB) >> 1;
  if constexpr (D == 9) return (b & ~FILE_H_BB) << 9;
  if constexpr (D == 7) return (b & ~FILE_A_BB) << 7;
  if constexpr (D == -7) return (b & ~FILE_H_BB) >> 7;
  if constexpr (D == -9) return (b & ~FILE_A_BB) >> 9;
  return 0;
}

template <Color C>
constexpr Bitboard pawn_attacks_bb(Bitboard b) {
  return C == WHITE ? shift<9>(b) | shift<7>(b) : shift<-7>(b) | shift<-9>(b);
}

struct Magic {
  Bitboard mask;
  Bitboard magic;
  Bitboard* attacks;
  unsigned shift;
  unsigned index(Bitboard occ) const {
#if defined(__BMI2__)
    return unsigned(_pext_u64(occ, mask));
#else
    return unsigned(((occ & mask) * magic) >> shift);
#endif
  }
};

namespace tables {
extern Bitboard pawn_attacks[2][64];
extern Bitboard knight_attacks[64];
extern Bitboard king_attacks[64];
extern Bitboard between[64][64];  // squares strictly between two aligned squares, plus the second
extern Bitboard line[64][64];     // the full line through two aligned squares, 0 if not aligned
extern Magic bishop_magics[64];
extern Magic rook_magics[64];
}  // namespace tables

// Builds every table; idempotent, called once from main/tests before any attack lookup.
void init_bitboards();

inline Bitboard bishop_attacks(Square s, Bitboard occ) {
  const Magic& m = tables::bishop_magics[s];
  return m.attacks[m.index(occ)];
}
inline Bitboard rook_attacks(Square s, Bitboard occ) {
  const Magic& m = tables::rook_magics[s];
  return m.attacks[m.index(occ)];
}
inline Bitboard queen_attacks(Square s, Bitboard occ) {
  return bishop_attacks(s, occ) | rook_attacks(s, occ);
}
inline Bitboard pawn_attacks(Color c, Square s) { return tables::pawn_attacks[c][s]; }
inline Bitboard knight_attacks(Square s) { return tables::knight_attacks[s]; }
inline Bitboard king_attacks(Square s) { return tables::king_attacks[s]; }
inline Bitboard between_bb(Square a, Square b) { return tables::between[a][b]; }
inline Bitboard line_bb(Square a, Square b) { return tables::line[a][b]; }
inline bool aligned(Square a, Square b, Square c) { return line_bb(a, b) & square_bb(c); }

template <PieceType Pt>
inline Bitboard attacks_bb(Square s, Bitboard occ) {
  if constexpr (Pt == KNIGHT) return knight_attacks(s);
  else if constexpr (Pt == BISHOP) return bishop_attacks(s, occ);
  else if constexpr (Pt == ROOK) return rook_attacks(s, occ);
  else if constexpr (Pt == QUEEN) return queen_attacks(s, occ);
  else if constexpr (Pt == KING) return king_attacks(s);
  else return 0;
}

inline Bitboard attacks_bb(PieceType pt, Square s, Bitboard occ) {
  switch (pt) {
    case KNIGHT: return knight_attacks(s);
    case BISHOP: return bishop_attacks(s, occ);
    case ROOK: return rook_attacks(s, occ);
    case QUEEN: return queen_attacks(s, occ);
    case KING: return king_attacks(s);
    default: return 0;
  }
}

// Slow ray walk used to build and to test the tables.
Bitboard sliding_attacks_reference(PieceType pt, Square s, Bitboard occ);

std::string bitboard_to_string(Bitboard b);

}  // namespace stk
