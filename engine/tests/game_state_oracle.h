// Game state tracked from first principles from the moves played, independent of Position's own
// bookkeeping (castling masks, undo stack): the oracle that the property tests hold the engine's
// castling rights, en-passant square, halfmove clock and fullmove number to.
#pragma once

#include <sstream>
#include <string>

#include "position.h"
#include "test_support.h"

namespace stk::test {

struct GameStateOracle {
  int castling = NO_CASTLING;
  Square ep = NO_SQUARE;  // the square a double push just skipped, capturable or not
  int rule50 = 0;
  int fullmove = 1;
  Color side = WHITE;

  // Fields 2-6 of a FEN, read as text (not through Position::set).
  static GameStateOracle from_fen(const std::string& fen) {
    std::istringstream in(fen);
    std::string placement, side, castle, ep;
    GameStateOracle o;
    in >> placement >> side >> castle >> ep >> o.rule50 >> o.fullmove;
    o.side = side == "b" ? BLACK : WHITE;
    for (char c : castle)
      o.castling |= c == 'K'   ? WHITE_OO
                    : c == 'Q' ? WHITE_OOO
                    : c == 'k' ? BLACK_OO
                    : c == 'q' ? BLACK_OOO
                               : 0;
    o.ep = ep == "-" ? NO_SQUARE : make_square(ep[0] - 'a', ep[1] - '1');
    return o;
  }

  // Call before pos.make_move(m): the board before the move says what moved and what was taken.
  void play(const Position& pos, Move m) {
    const Square from = m.from(), to = m.to();
    const PieceType moved = type_of(pos.piece_on(from));
    const bool capture = m.kind() == EN_PASSANT || (m.kind() != CASTLING && !pos.empty(to));
    rule50 = moved == PAWN || capture ? 0 : rule50 + 1;
    if (side == BLACK) ++fullmove;
    // A right goes when its king moves, when its rook leaves its corner, or when something
    // lands on that corner (the rook there is captured).
    if (moved == KING)
      castling &= side == WHITE ? ~(WHITE_OO | WHITE_OOO) : ~(BLACK_OO | BLACK_OOO);
    for (Square s : {from, to}) castling &= ~corner_right(s);
    ep = moved == PAWN && (to - from == 16 || from - to == 16) ? Square((from + to) / 2)
                                                               : NO_SQUARE;
    side = ~side;
  }

  void play_null() {
    ++rule50;
    if (side == BLACK) ++fullmove;
    ep = NO_SQUARE;
    side = ~side;
  }

  // "" when the engine agrees, else what differs.
  std::string differs(const Position& pos) const {
    std::ostringstream why;
    if (pos.castling_rights() != castling)
      why << "castling rights " << pos.castling_rights() << ", expected " << castling << "; ";
    if (pos.ep_square() != ep)
      why << "en-passant square " << pos.ep_square() << ", expected " << ep << "; ";
    if (pos.rule50() != rule50)
      why << "halfmove clock " << pos.rule50() << ", expected " << rule50 << "; ";
    if (1 + pos.game_ply() / 2 != fullmove)
      why << "fullmove number " << 1 + pos.game_ply() / 2 << ", expected " << fullmove << "; ";
    if (pos.side_to_move() != side) why << "side to move; ";
    return why.str().empty() ? "" : why.str() + "in " + pos.fen();
  }

 private:
  static int corner_right(Square s) {
    return s == 0 ? WHITE_OOO : s == 7 ? WHITE_OO : s == 56 ? BLACK_OOO : s == 63 ? BLACK_OO : 0;
  }
};

// Start positions for walks checked against the oracle: the tricky set plus rooks that can be
// captured on their corners while the rights stand (rare from the tricky set alone).
inline const std::vector<std::string>& oracle_start_fens() {
  static const std::vector<std::string> fens = [] {
    auto v = tricky_fens();
    v.push_back("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    v.push_back("r3k2r/1B6/8/8/8/8/6b1/R3K2R w KQkq - 7 31");
    v.push_back("r3k2r/6N1/8/8/8/8/1n6/R3K2R b KQkq - 0 12");
    return v;
  }();
  return fens;
}

}  // namespace stk::test
