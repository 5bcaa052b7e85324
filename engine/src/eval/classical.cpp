#include "eval/classical.h"

#include <algorithm>
#include <array>
#include <cstdlib>

namespace stk::eval {

namespace {

// A middlegame/endgame pair, blended by game phase at the end.
struct Score {
  int mg = 0, eg = 0;
  constexpr Score() = default;
  constexpr Score(int m, int e) : mg(m), eg(e) {}
  constexpr Score operator+(Score o) const { return {mg + o.mg, eg + o.eg}; }
  constexpr Score operator-(Score o) const { return {mg - o.mg, eg - o.eg}; }
  constexpr Score operator*(int k) const { return {mg * k, eg * k}; }
  Score& operator+=(Score o) { return mg += o.mg, eg += o.eg, *this; }
  Score& operator-=(Score o) { return mg -= o.mg, eg -= o.eg, *this; }
};

constexpr Score kMaterial[6] = {{90, 110}, {320, 300}, {335, 320}, {480, 540}, {960, 1000}, {0, 0}};
constexpr int kPhaseWeight[6] = {0, 1, 1, 2, 4, 0};

// Piece-square terms are built from simple geometric rules rather than tuned tables:
// centralisation for minor pieces, advancement for pawns, shelter then activity for the king.
int center_distance(Square s) {
  int f = file_of(s), r = rank_of(s);
  return std::max(std::abs(2 * f - 7), std::abs(2 * r - 7)) / 2;  // 0 (centre) .. 3 (edge)
}

struct Tables {
  Score psq[6][64];             // from white's point of view
  Bitboard passed_mask[2][64];  // squares ahead on this and adjacent files
  Tables() {
    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
      Bitboard files = file_bb(file_of(s)) | shift<1>(file_bb(file_of(s))) |
                       shift<-1>(file_bb(file_of(s)));
      passed_mask[WHITE][s] = passed_mask[BLACK][s] = 0;
      for (int r = 0; r < 8; ++r) {
        if (r > rank_of(s)) passed_mask[WHITE][s] |= files & rank_bb(r);
        if (r < rank_of(s)) passed_mask[BLACK][s] |= files & rank_bb(r);
      }
      int f = file_of(s), r = rank_of(s), cd = center_distance(s);
      // Pawns: advancing pays, more so in the endgame; central pawns a little more in the opening.
      int central = (f == 3 || f == 4) ? 8 : (f == 2 || f == 5) ? 3 : 0;
      psq[PAWN][s] = r == 0 || r == 7
                         ? Score()
                         : Score(3 * (r - 1) + central * (r >= 3 && r <= 4), 8 * (r - 1));
      psq[KNIGHT][s] = Score(15 - 12 * cd, 10 - 8 * cd);
      psq[BISHOP][s] = Score(8 - 6 * cd, 6 - 4 * cd);
      psq[ROOK][s] = Score(r == 6 ? 15 : (f == 3 || f == 4) ? 4 : 0, 0);
      psq[QUEEN][s] = Score(4 - 3 * cd, 8 - 6 * cd);
      // King: tucked away behind pawns in the middlegame, central in the endgame.
      int shelter = r == 0 ? ((f <= 2 || f >= 6) ? 20 : 0) : -12 * r;
      psq[KING][s] = Score(shelter, 24 - 12 * cd);
    }
  }
};
const Tables& tables() {
  static const Tables t;
  return t;
}

// Mobility and king attack are scored for the knight to the queen only: index pt - KNIGHT.
constexpr Score kMobility[4] = {{4, 4}, {5, 5}, {2, 4}, {1, 2}};
constexpr int kMobilityBase[4] = {4, 6, 6, 12};  // typical count: below it is a malus
constexpr Score kBishopPair{30, 50};
constexpr Score kDoubled{-10, -20};
constexpr Score kIsolated{-12, -15};
constexpr Score kPassed[8] = {{0, 0},   {5, 10},  {8, 15},   {15, 30},
                              {30, 55}, {50, 90}, {80, 130}, {0, 0}};
constexpr Score kRookOpenFile{25, 10};
constexpr Score kRookSemiOpen{12, 6};
constexpr int kKingAttackWeight[4] = {20, 20, 40, 80};
constexpr int kTempo = 15;

template <Color Us>
Score evaluate_side(const Position& pos, Bitboard enemy_pawn_attacks, int& attack_units) {
  constexpr Color Them = Us == WHITE ? BLACK : WHITE;
  const Tables& t = tables();
  Score s;
  const Bitboard occ = pos.pieces();
  const Bitboard our_pawns = pos.pieces(Us, PAWN), their_pawns = pos.pieces(Them, PAWN);
  const Square their_king = pos.king_square(Them);
  const Bitboard king_zone = king_attacks(their_king) | square_bb(their_king);
  const Bitboard mobility_area = ~pos.pieces(Us) & ~enemy_pawn_attacks;
  int attackers = 0;

  for (int pt = PAWN; pt <= KING; ++pt) {
    for (Bitboard b = pos.pieces(Us, PieceType(pt)); b;) {
      Square sq = pop_lsb(b);
      Square rel = Us == WHITE ? sq : flip_rank(sq);
      s += kMaterial[pt] + t.psq[pt][rel];
      if (pt == PAWN) {
        Bitboard file = file_bb(file_of(sq));
        Bitboard adjacent = shift<1>(file) | shift<-1>(file);
        if (more_than_one(our_pawns & file) && (our_pawns & file & ~square_bb(sq)) &&
            lsb(our_pawns & file) == sq)
          s += kDoubled;
        if (!(our_pawns & adjacent)) s += kIsolated;
        // Passed: no enemy pawn ahead on this or an adjacent file.
        if (!(their_pawns & t.passed_mask[Us][sq])) s += kPassed[relative_rank(Us, sq)];
      } else if (pt != KING) {
        Bitboard att = attacks_bb(PieceType(pt), sq, occ);
        int mob = popcount(att & mobility_area);
        s += kMobility[pt - KNIGHT] * (mob - kMobilityBase[pt - KNIGHT]);
        if (att & king_zone) {
          ++attackers;
          attack_units += kKingAttackWeight[pt - KNIGHT] * popcount(att & king_zone);
        }
        if (pt == ROOK) {
          Bitboard file = file_bb(file_of(sq));
          if (!(our_pawns & file)) s += (their_pawns & file) ? kRookSemiOpen : kRookOpenFile;
        }
      }
    }
  }
  if (pos.count(Us, BISHOP) >= 2) s += kBishopPair;
  if (attackers < 2 || !pos.pieces(Us, QUEEN)) attack_units /= 2;
  return s;
}

// Pawn shelter in front of the king (middlegame only).
template <Color Us>
int king_shelter(const Position& pos) {
  Square k = pos.king_square(Us);
  Bitboard pawns = pos.pieces(Us, PAWN);
  int f = std::clamp(file_of(k), 1, 6);
  int bonus = 0;
  for (int df = -1; df <= 1; ++df) {
    Bitboard file_pawns = pawns & file_bb(f + df);
    if (!file_pawns) {
      bonus -= 18;
      continue;
    }
    Square nearest = Us == WHITE ? lsb(file_pawns) : msb(file_pawns);
    int dist = std::abs(rank_of(nearest) - rank_of(k));
    bonus += dist <= 1 ? 12 : dist == 2 ? 5 : -5;
  }
  return bonus;
}

}  // namespace

int game_phase(const Position& pos) {
  int phase = 0;
  for (int pt = KNIGHT; pt <= QUEEN; ++pt)
    phase += kPhaseWeight[pt] * popcount(pos.pieces(PieceType(pt)));
  return std::min(phase, 24);
}

int classical(const Position& pos) {
  Bitboard wpa = pawn_attacks_bb<WHITE>(pos.pieces(WHITE, PAWN));
  Bitboard bpa = pawn_attacks_bb<BLACK>(pos.pieces(BLACK, PAWN));
  int units_w = 0, units_b = 0;
  Score s = evaluate_side<WHITE>(pos, bpa, units_w) - evaluate_side<BLACK>(pos, wpa, units_b);
  // King danger grows faster than linearly with the weight of the attack.
  auto danger = [](int units) { return std::min(units * units / 64, 500); };
  s.mg += danger(units_w) - danger(units_b);
  s.mg += king_shelter<WHITE>(pos) - king_shelter<BLACK>(pos);

  int phase = game_phase(pos);
  int v = (s.mg * phase + s.eg * (24 - phase)) / 24;
  // Drawish material: without pawns a side needs more than a minor piece up to win.
  Color strong = v > 0 ? WHITE : BLACK;
  if (!pos.pieces(strong, PAWN)) {
    int np = 0;
    for (int pt = KNIGHT; pt <= QUEEN; ++pt)
      np += kMaterial[pt].eg * pos.count(strong, PieceType(pt));
    int npw = 0;
    for (int pt = KNIGHT; pt <= QUEEN; ++pt)
      npw += kMaterial[pt].eg * pos.count(~strong, PieceType(pt));
    if (np - npw <= kMaterial[BISHOP].eg) v /= 8;
  }
  v = pos.side_to_move() == WHITE ? v : -v;
  return v + kTempo;
}

}  // namespace stk::eval
