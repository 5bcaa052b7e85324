// Property tests over random legal games (RapidCheck): the move generator and make/unmake.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include "game_state_oracle.h"
#include "perft.h"
#include "test_support.h"

using namespace stk;

namespace {

// Pseudo-legal moves: every move whose piece moves by its rules, ignoring king safety.
// Written independently of the legal generator, as the reference it is filtered against; the
// castling rights and en-passant square come from the oracle (tracked from the moves played),
// not from the engine under test.
std::vector<Move> pseudo_legal(const Position& pos, const test::GameStateOracle& state) {
  std::vector<Move> out;
  Color us = pos.side_to_move();
  Bitboard own = pos.pieces(us), occ = pos.pieces();
  for (Bitboard b = own; b;) {
    Square from = pop_lsb(b);
    PieceType pt = type_of(pos.piece_on(from));
    if (pt == PAWN) {
      Square one = from + pawn_push(us);
      auto add = [&](Square to, MoveKind k = NORMAL) {
        if (relative_rank(us, to) == 7)
          for (PieceType pr : {KNIGHT, BISHOP, ROOK, QUEEN})
            out.emplace_back(from, to, PROMOTION, pr);
        else out.emplace_back(from, to, k);
      };
      if (pos.empty(one)) {
        add(one);
        Square two = one + pawn_push(us);
        if (relative_rank(us, from) == 1 && pos.empty(two)) add(two);
      }
      for (Bitboard t = pawn_attacks(us, from); t;) {
        Square to = pop_lsb(t);
        if (pos.pieces(~us) & square_bb(to)) add(to);
        else if (to == state.ep) add(to, EN_PASSANT);
      }
    } else {
      for (Bitboard t = attacks_bb(pt, from, occ) & ~own; t;) out.emplace_back(from, pop_lsb(t));
    }
  }
  // Castling by the rules (rights, empty path, no attacked square on the king's way).
  int cr = state.castling;
  Square k = us == WHITE ? SQ_E1 : SQ_E8;
  auto safe = [&](Square s) { return !pos.is_attacked_by(~us, s, occ); };
  if ((cr & (us == WHITE ? WHITE_OO : BLACK_OO)) && pos.empty(k + 1) && pos.empty(k + 2) &&
      safe(k) && safe(k + 1))
    out.emplace_back(k, k + 2, CASTLING);
  if ((cr & (us == WHITE ? WHITE_OOO : BLACK_OOO)) && pos.empty(k - 1) && pos.empty(k - 2) &&
      pos.empty(k - 3) && safe(k) && safe(k - 1))
    out.emplace_back(k, k - 2, CASTLING);
  return out;
}

std::vector<std::uint16_t> sorted_raw(std::vector<Move> moves) {
  std::vector<std::uint16_t> r;
  for (Move m : moves) r.push_back(m.raw());
  std::sort(r.begin(), r.end());
  return r;
}

const auto gen_start = rc::gen::elementOf(test::tricky_fens());
const auto gen_choices = rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 1 << 20));

}  // namespace

// MODEL movegen-legal-moves
// checks: engine/src/movegen.cpp  (the legal moves of a position: pseudo-legal by the pieces' rules, filtered by king safety)
// contract: docs/engine.md#board-and-move-generation
// planted: ci/mutants/model-movegen-legal-moves.patch  (a checked king may step back along the checking slider's line)
TEST_CASE("properties of make/unmake and the legal generator", "[movegen][property]") {
  rc::prop("unmake restores every field and the hash", [] {
    Position pos;
    RC_ASSERT(!pos.set(*gen_start));
    auto choices = *gen_choices;
    std::vector<std::string> fens{pos.fen()};
    std::vector<Key> keys{pos.key()};
    auto played = test::play_random(pos, choices);
    for (std::size_t i = 0; i < played.size(); ++i) fens.push_back(""), keys.push_back(0);
    // Walk back, comparing with the states recorded on the way forward by replaying.
    Position replay;
    RC_ASSERT(!replay.set(fens[0]));
    for (std::size_t i = 0; i < played.size(); ++i) {
      replay.make_move(played[i]);
      fens[i + 1] = replay.fen();
      keys[i + 1] = replay.key();
    }
    for (std::size_t i = played.size(); i > 0; --i) {
      RC_ASSERT(pos.fen() == fens[i]);
      RC_ASSERT(pos.key() == keys[i]);
      pos.unmake_move();
    }
    RC_ASSERT(pos.fen() == fens[0]);
    RC_ASSERT(pos.key() == keys[0]);
    std::string why;
    RC_ASSERT(pos.is_ok(&why));
  });

  rc::prop("incremental hash equals recomputed hash, and the position stays consistent", [] {
    Position pos;
    RC_ASSERT(!pos.set(*gen_start));
    for (int c : *gen_choices) {
      MoveList list(pos);
      if (list.size() == 0) break;
      if (c % 7 == 0 && !pos.in_check()) {  // sprinkle null moves
        pos.make_null();
        RC_ASSERT(pos.key() == pos.compute_key());
        pos.unmake_null();
      }
      pos.make_move(list.begin()[std::size_t(c) % list.size()].move);
      std::string why;
      RC_ASSERT(pos.key() == pos.compute_key());
      RC_ASSERT(pos.is_ok(&why));
    }
  });

  rc::prop("legal moves equal pseudo-legal moves filtered by king safety", [] {
    Position pos;
    const std::string start = *rc::gen::elementOf(test::oracle_start_fens());
    RC_ASSERT(!pos.set(start));
    auto state = test::GameStateOracle::from_fen(start);
    for (int c : *gen_choices) {  // test::play_random, with the oracle following every move
      MoveList list(pos);
      if (list.size() == 0) break;
      Move m = list.begin()[std::size_t(c) % list.size()].move;
      state.play(pos, m);
      pos.make_move(m);
      RC_ASSERT(state.differs(pos) == "");
    }
    std::vector<Move> filtered;
    for (Move m : pseudo_legal(pos, state)) {
      pos.make_move(m);
      bool legal = !pos.is_attacked_by(pos.side_to_move(), pos.king_square(~pos.side_to_move()),
                                       pos.pieces());
      pos.unmake_move();
      if (legal) filtered.push_back(m);
    }
    std::vector<Move> generated;
    for (const ExtMove& e : MoveList(pos)) generated.push_back(e.move);
    RC_ASSERT(sorted_raw(generated) == sorted_raw(filtered));
    // NOISY and QUIET partition LEGAL.
    std::vector<Move> parts;
    for (const ExtMove& e : MoveList(pos, NOISY)) parts.push_back(e.move);
    for (const ExtMove& e : MoveList(pos, QUIET)) parts.push_back(e.move);
    RC_ASSERT(sorted_raw(parts) == sorted_raw(generated));
  });

  rc::prop("FEN print/parse round trip", [] {
    Position pos;
    RC_ASSERT(!pos.set(*gen_start));
    test::play_random(pos, *gen_choices);
    Position back;
    RC_ASSERT(!back.set(pos.fen()));
    RC_ASSERT(back.fen() == pos.fen());
    RC_ASSERT(back.key() == pos.key());
  });

  rc::prop("perft of a position equals perft of its colour mirror", [] {
    Position pos;
    RC_ASSERT(!pos.set(*gen_start));
    test::play_random(pos, *rc::gen::container<std::vector<int>>(*rc::gen::inRange(0, 40),
                                                                 rc::gen::inRange(0, 1 << 20)));
    Position mirror = pos.mirrored();
    RC_ASSERT(mirror.mirrored().fen() == pos.fen());
    RC_ASSERT(perft(pos, 3) == perft(mirror, 3));
  });
}
