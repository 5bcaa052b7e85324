#include "movegen.h"

namespace stk {

namespace {

template <GenType T>
ExtMove* add_promotions(ExtMove* list, Square from, Square to) {
  for (PieceType pt : {QUEEN, KNIGHT, ROOK, BISHOP}) *list++ = {Move(from, to, PROMOTION, pt), 0};
  return list;
}

// Pawn moves of colour Us. `targets` limits destination squares (check evasion mask);
// `pinned` pawns may only move along the line through their king.
template <Color Us, GenType T>
ExtMove* pawn_moves(const Position& pos, ExtMove* list, Bitboard targets, Bitboard pinned,
                    Square ksq) {
  constexpr Color Them = Us == WHITE ? BLACK : WHITE;
  constexpr int Up = Us == WHITE ? 8 : -8;
  constexpr int UpLeft = Us == WHITE ? 7 : -9;
  constexpr int UpRight = Us == WHITE ? 9 : -7;
  constexpr Bitboard Rank7 = Us == WHITE ? rank_bb(6) : rank_bb(1);
  constexpr Bitboard Rank3 = Us == WHITE ? rank_bb(2) : rank_bb(5);

  const Bitboard empty = ~pos.pieces();
  const Bitboard enemies = pos.pieces(Them);
  const Bitboard pawns = pos.pieces(Us, PAWN);

  // Pinned pawns are handled one by one below; free pawns in bulk by shifts.
  for (int pass = 0; pass < 2; ++pass) {
    Bitboard group = pass == 0 ? pawns & ~pinned : pawns & pinned;
    if (!group) continue;
    const Bitboard allowed = targets;
    if (pass == 1) {
      // Only reachable via the loop over pinned pawns.
      for (Bitboard b = group; b;) {
        Square s = pop_lsb(b);
        Bitboard single = square_bb(s);
        Bitboard pin_line = line_bb(ksq, s);
        Bitboard tgt = targets & pin_line;
        Bitboard promo = single & Rank7, rest = single & ~Rank7;
        if (T != QUIET) {
          Bitboard caps = pawn_attacks(Us, s) & enemies & tgt;
          while (caps) {
            Square to = pop_lsb(caps);
            if (promo) list = add_promotions<T>(list, s, to);
            else *list++ = {Move(s, to), 0};
          }
          if (promo) {
            Bitboard push = shift<Up>(promo) & empty & tgt;
            if (push) list = add_promotions<T>(list, s, lsb(push));
          }
        }
        if (T != NOISY && rest) {
          Bitboard push1 = shift<Up>(rest) & empty;
          Bitboard push2 = shift<Up>(push1 & Rank3) & empty & tgt;
          if (push1 & tgt) *list++ = {Move(s, s + Up), 0};
          if (push2) *list++ = {Move(s, s + 2 * Up), 0};
        }
      }
      continue;
    }
    Bitboard promo = group & Rank7, rest = group & ~Rank7;
    if (T != NOISY) {
      Bitboard push1 = shift<Up>(rest) & empty;
      Bitboard push2 = shift<Up>(push1 & Rank3) & empty & allowed;
      push1 &= allowed;
      while (push1) {
        Square to = pop_lsb(push1);
        *list++ = {Move(to - Up, to), 0};
      }
      while (push2) {
        Square to = pop_lsb(push2);
        *list++ = {Move(to - 2 * Up, to), 0};
      }
    }
    if (T != QUIET) {
      if (promo) {
        Bitboard pl = shift<UpLeft>(promo) & enemies & allowed;
        Bitboard pr = shift<UpRight>(promo) & enemies & allowed;
        Bitboard pu = shift<Up>(promo) & empty & allowed;
        while (pl) {
          Square to = pop_lsb(pl);
          list = add_promotions<T>(list, to - UpLeft, to);
        }
        while (pr) {
          Square to = pop_lsb(pr);
          list = add_promotions<T>(list, to - UpRight, to);
        }
        while (pu) {
          Square to = pop_lsb(pu);
          list = add_promotions<T>(list, to - Up, to);
        }
      }
      Bitboard cl = shift<UpLeft>(rest) & enemies & allowed;
      Bitboard cr = shift<UpRight>(rest) & enemies & allowed;
      while (cl) {
        Square to = pop_lsb(cl);
        *list++ = {Move(to - UpLeft, to), 0};
      }
      while (cr) {
        Square to = pop_lsb(cr);
        *list++ = {Move(to - UpRight, to), 0};
      }
    }
  }

  // En passant: rare, so verified by replaying the occupancy change (catches the
  // horizontal discovered check through both pawns).
  if (T != QUIET && pos.ep_square() != NO_SQUARE) {
    Square ep = pos.ep_square();
    Square cap_sq = ep - Up;
    Bitboard candidates = pawn_attacks(Them, ep) & pawns;
    while (candidates) {
      Square from = pop_lsb(candidates);
      Bitboard occ = (pos.pieces() ^ square_bb(from) ^ square_bb(cap_sq)) | square_bb(ep);
      Bitboard attackers = ((rook_attacks(ksq, occ) & pos.pieces(ROOK, QUEEN)) |
                            (bishop_attacks(ksq, occ) & pos.pieces(BISHOP, QUEEN)) |
                            (knight_attacks(ksq) & pos.pieces(KNIGHT)) |
                            (pawn_attacks(Us, ksq) & pos.pieces(PAWN) & ~square_bb(cap_sq))) &
                           pos.pieces(Them);
      if (!attackers) *list++ = {Move(from, ep, EN_PASSANT), 0};
    }
  }
  return list;
}

// Knight and slider moves to `targets`; a pinned piece stays on the line through its king.
template <PieceType Pt>
ExtMove* piece_moves(const Position& pos, ExtMove* list, Bitboard targets, Bitboard pinned,
                     Square ksq) {
  Bitboard pcs = pos.pieces(pos.side_to_move(), Pt);
  if constexpr (Pt == KNIGHT) pcs &= ~pinned;  // a pinned knight can never move
  const Bitboard occ = pos.pieces();
  while (pcs) {
    Square from = pop_lsb(pcs);
    Bitboard att = attacks_bb<Pt>(from, occ) & targets;
    if (Pt != KNIGHT && (pinned & square_bb(from))) att &= line_bb(ksq, from);
    while (att) *list++ = {Move(from, pop_lsb(att)), 0};
  }
  return list;
}

template <Color Us, GenType T>
ExtMove* generate_all(const Position& pos, ExtMove* list) {
  constexpr Color Them = Us == WHITE ? BLACK : WHITE;
  const Square ksq = pos.king_square(Us);
  const Bitboard occ = pos.pieces();
  const Bitboard checkers = pos.checkers();
  const Bitboard kind_mask = T == NOISY ? pos.pieces(Them) : T == QUIET ? ~occ : ~pos.pieces(Us);

  // King moves: destination must not be attacked once the king has left its square.
  Bitboard kt = king_attacks(ksq) & kind_mask;
  const Bitboard occ_no_king = occ ^ square_bb(ksq);
  while (kt) {
    Square to = pop_lsb(kt);
    if (!pos.is_attacked_by(Them, to, occ_no_king)) *list++ = {Move(ksq, to), 0};
  }
  if (more_than_one(checkers)) return list;  // double check: only the king moves

  const Bitboard check_mask = checkers ? between_bb(ksq, lsb(checkers)) : ~Bitboard(0);
  const Bitboard pinned = pos.blockers_for_king(Us) & pos.pieces(Us);
  const Bitboard targets = kind_mask & check_mask;

  list = pawn_moves<Us, T>(pos, list, check_mask, pinned, ksq);

  list = piece_moves<KNIGHT>(pos, list, targets, pinned, ksq);
  list = piece_moves<BISHOP>(pos, list, targets, pinned, ksq);
  list = piece_moves<ROOK>(pos, list, targets, pinned, ksq);
  list = piece_moves<QUEEN>(pos, list, targets, pinned, ksq);

  // Castling: not out of, through or into check; squares between king and rook empty.
  if (T != NOISY && !checkers) {
    int cr = pos.castling_rights();
    constexpr int OO = Us == WHITE ? WHITE_OO : BLACK_OO;
    constexpr int OOO = Us == WHITE ? WHITE_OOO : BLACK_OOO;
    constexpr Square K = Us == WHITE ? SQ_E1 : SQ_E8;
    if ((cr & OO) && !(occ & (square_bb(K + 1) | square_bb(K + 2))) &&
        !pos.is_attacked_by(Them, K + 1, occ) && !pos.is_attacked_by(Them, K + 2, occ))
      *list++ = {Move(K, K + 2, CASTLING), 0};
    if ((cr & OOO) && !(occ & (square_bb(K - 1) | square_bb(K - 2) | square_bb(K - 3))) &&
        !pos.is_attacked_by(Them, K - 1, occ) && !pos.is_attacked_by(Them, K - 2, occ))
      *list++ = {Move(K, K - 2, CASTLING), 0};
  }
  return list;
}

}  // namespace

template <GenType T>
ExtMove* generate(const Position& pos, ExtMove* list) {
  return pos.side_to_move() == WHITE ? generate_all<WHITE, T>(pos, list)
                                     : generate_all<BLACK, T>(pos, list);
}

template ExtMove* generate<NOISY>(const Position&, ExtMove*);
template ExtMove* generate<QUIET>(const Position&, ExtMove*);
template ExtMove* generate<LEGAL>(const Position&, ExtMove*);

MoveList::MoveList(const Position& pos, GenType t) {
  last_ = t == NOISY   ? generate<NOISY>(pos, moves_)
          : t == QUIET ? generate<QUIET>(pos, moves_)
                       : generate<LEGAL>(pos, moves_);
}

}  // namespace stk
