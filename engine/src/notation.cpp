#include "notation.h"

#include "movegen.h"

namespace stk {

namespace {
constexpr const char* kPieceLetters = "PNBRQK";
}

std::string to_uci(Move m) {
  if (m == Move::none()) return "0000";
  if (m == Move::null()) return "0000";
  std::string s = square_name(m.from()) + square_name(m.to());
  if (m.kind() == PROMOTION) s += "nbrq"[m.promotion() - KNIGHT];
  return s;
}

std::optional<Move> parse_uci(const Position& pos, const std::string& text) {
  for (const ExtMove& e : MoveList(pos))
    if (to_uci(e.move) == text) return e.move;
  return std::nullopt;
}

std::string to_san(Position& pos, Move m) {
  std::string s;
  PieceType pt = type_of(pos.moved_piece(m));
  if (m.kind() == CASTLING) {
    s = m.to() > m.from() ? "O-O" : "O-O-O";
  } else {
    if (pt != PAWN) {
      s += kPieceLetters[pt];
      // Disambiguate by file, else rank, else both, among same-type pieces reaching `to`.
      bool clash = false, same_file = false, same_rank = false;
      for (const ExtMove& e : MoveList(pos)) {
        Move o = e.move;
        if (o == m || o.to() != m.to() || type_of(pos.moved_piece(o)) != pt) continue;
        clash = true;
        same_file |= file_of(o.from()) == file_of(m.from());
        same_rank |= rank_of(o.from()) == rank_of(m.from());
      }
      if (clash) {
        if (!same_file) s += char('a' + file_of(m.from()));
        else if (!same_rank) s += char('1' + rank_of(m.from()));
        else s += square_name(m.from());
      }
    }
    if (pos.is_capture(m)) {
      if (pt == PAWN) s += char('a' + file_of(m.from()));
      s += 'x';
    }
    s += square_name(m.to());
    if (m.kind() == PROMOTION) {
      s += '=';
      s += kPieceLetters[m.promotion()];
    }
  }
  pos.make_move(m);
  if (pos.in_check()) s += MoveList(pos).size() ? '+' : '#';
  pos.unmake_move();
  return s;
}

std::optional<Move> parse_san(const Position& pos, const std::string& text) {
  std::string t = text;
  // Strip annotations and suffixes that carry no move information.
  if (t.size() > 4 && t.compare(t.size() - 4, 4, "e.p.") == 0) t.resize(t.size() - 4);
  while (!t.empty() && (t.back() == '+' || t.back() == '#' || t.back() == '!' || t.back() == '?'))
    t.pop_back();
  if (t.empty()) return std::nullopt;
  if (t == "0-0") t = "O-O";
  if (t == "0-0-0") t = "O-O-O";

  std::optional<Move> found;
  Position& mpos = const_cast<Position&>(pos);  // to_san makes and unmakes: net unchanged
  for (const ExtMove& e : MoveList(pos)) {
    std::string san = to_san(mpos, e.move);
    while (!san.empty() && (san.back() == '+' || san.back() == '#')) san.pop_back();
    std::string alt = san;  // promotion without '='
    if (auto eq = alt.find('='); eq != std::string::npos) alt.erase(eq, 1);
    bool match = san == t || alt == t;
    if (!match && type_of(pos.moved_piece(e.move)) != PAWN && e.move.kind() != CASTLING) {
      // Over-disambiguated SAN (e.g. "Ngf3" where "Nf3" suffices, or "Ng1f3").
      std::string letter(1, kPieceLetters[type_of(pos.moved_piece(e.move))]);
      std::string x = pos.is_capture(e.move) ? "x" : "";
      std::string to = square_name(e.move.to());
      std::string f(1, char('a' + file_of(e.move.from())));
      std::string r(1, char('1' + rank_of(e.move.from())));
      match = t == letter + f + x + to || t == letter + r + x + to ||
              t == letter + square_name(e.move.from()) + x + to;
    }
    if (match) {
      if (found) return std::nullopt;  // ambiguous
      found = e.move;
    }
  }
  return found;
}

}  // namespace stk
