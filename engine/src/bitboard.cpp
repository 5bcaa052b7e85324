#include "bitboard.h"

#include <cstdlib>
#include <mutex>

namespace stk {

namespace tables {
Bitboard pawn_attacks[2][64];
Bitboard knight_attacks[64];
Bitboard king_attacks[64];
Bitboard between[64][64];
Bitboard line[64][64];
Magic bishop_magics[64];
Magic rook_magics[64];
}  // namespace tables

namespace {

Bitboard rook_table[0x19000];
Bitboard bishop_table[0x1480];

// Steps from s by (df, dr); 0 if off the board.
Bitboard step(Square s, int df, int dr) {
  int f = file_of(s) + df, r = rank_of(s) + dr;
  return (f >= 0 && f < 8 && r >= 0 && r < 8) ? square_bb(make_square(f, r)) : 0;
}

// xorshift64*: fixed seed, so magic search is the same on every run.
struct Prng {
  std::uint64_t s;
  std::uint64_t next() {
    s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
    return s * 2685821657736338717ULL;
  }
  std::uint64_t sparse() { return next() & next() & next(); }
};

void init_magics(PieceType pt, Bitboard* table, Magic* magics) {
  Bitboard occupancy[4096], reference[4096];
  int epoch[4096] = {}, cnt = 0;
  Prng rng{728};
  std::size_t offset = 0;
  for (Square s = SQ_A1; s <= SQ_H8; ++s) {
    Bitboard edges = ((RANK_1_BB | RANK_8_BB) & ~rank_bb(rank_of(s))) |
                     ((FILE_A_BB | FILE_H_BB) & ~file_bb(file_of(s)));
    Magic& m = magics[s];
    m.mask = sliding_attacks_reference(pt, s, 0) & ~edges;
    m.shift = 64 - popcount(m.mask);
    m.attacks = table + offset;
    // Carry-Rippler enumeration of every subset of the mask.
    int size = 0;
    Bitboard b = 0;
    do {
      occupancy[size] = b;
      reference[size] = sliding_attacks_reference(pt, s, b);
#if defined(__BMI2__)
      m.attacks[_pext_u64(b, m.mask)] = reference[size];
#endif
      ++size;
      b = (b - m.mask) & m.mask;
    } while (b);
    offset += std::size_t(size);
#if !defined(__BMI2__)
    for (int i = 0; i < size;) {
      for (m.magic = 0; popcount((m.magic * m.mask) >> 56) < 6;) m.magic = rng.sparse();
      for (++cnt, i = 0; i < size; ++i) {
        unsigned idx = m.index(occupancy[i]);
        if (epoch[idx] < cnt) {
          epoch[idx] = cnt;
          m.attacks[idx] = reference[i];
        } else if (m.attacks[idx] != reference[i]) {
          break;
        }
      }
    }
#else
    (void)rng, (void)epoch, (void)cnt, (void)occupancy;
#endif
  }
}

void init_all() {
  for (Square s = SQ_A1; s <= SQ_H8; ++s) {
    tables::pawn_attacks[WHITE][s] = step(s, -1, 1) | step(s, 1, 1);
    tables::pawn_attacks[BLACK][s] = step(s, -1, -1) | step(s, 1, -1);
    tables::knight_attacks[s] = step(s, 1, 2) | step(s, 2, 1) | step(s, 2, -1) | step(s, 1, -2) |
                                step(s, -1, -2) | step(s, -2, -1) | step(s, -2, 1) | step(s, -1, 2);
    tables::king_attacks[s] = step(s, 1, 0) | step(s, -1, 0) | step(s, 0, 1) | step(s, 0, -1) |
                              step(s, 1, 1) | step(s, 1, -1) | step(s, -1, 1) | step(s, -1, -1);
  }
  init_magics(ROOK, rook_table, tables::rook_magics);
  init_magics(BISHOP, bishop_table, tables::bishop_magics);
  for (Square a = SQ_A1; a <= SQ_H8; ++a) {
    for (Square b = SQ_A1; b <= SQ_H8; ++b) {
      tables::between[a][b] = square_bb(b);
      tables::line[a][b] = 0;
      for (PieceType pt : {BISHOP, ROOK}) {
        if (sliding_attacks_reference(pt, a, 0) & square_bb(b)) {
          tables::line[a][b] = (sliding_attacks_reference(pt, a, 0) &
                                sliding_attacks_reference(pt, b, 0)) |
                               square_bb(a) | square_bb(b);
          tables::between[a][b] |= sliding_attacks_reference(pt, a, square_bb(b)) &
                                   sliding_attacks_reference(pt, b, square_bb(a));
        }
      }
    }
  }
}

}  // namespace

void init_bitboards() {
  static std::once_flag once;
  std::call_once(once, init_all);
}

Bitboard sliding_attacks_reference(PieceType pt, Square s, Bitboard occ) {
  static const int rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  static const int bishop_dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
  const auto& dirs = pt == ROOK ? rook_dirs : bishop_dirs;
  Bitboard result = 0;
  for (const auto& d : dirs) {
    Square cur = s;
    while (Bitboard next = step(cur, d[0], d[1])) {
      result |= next;
      cur = lsb(next);
      if (occ & next) break;
    }
  }
  return result;
}

std::string square_name(Square s) {
  if (s < 0 || s >= 64) return "-";
  return std::string{char('a' + file_of(s)), char('1' + rank_of(s))};
}

Square parse_square(const std::string& s) {
  if (s.size() != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8') return NO_SQUARE;
  return make_square(s[0] - 'a', s[1] - '1');
}

std::string bitboard_to_string(Bitboard b) {
  std::string out;
  for (int r = 7; r >= 0; --r) {
    for (int f = 0; f < 8; ++f) out += (b & square_bb(make_square(f, r))) ? 'X' : '.';
    out += '\n';
  }
  return out;
}

}  // namespace stk
