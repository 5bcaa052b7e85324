#include "commands/uci-check/pv_consistency.h"

#include <cctype>

#include "movegen.h"
#include "notation.h"

namespace stk::harness::ucicheck {

bool has_legal_move(const Position& pos) { return MoveList(pos).size() > 0; }
bool is_checkmate(const Position& pos) { return pos.in_check() && !has_legal_move(pos); }

std::string why_illegal(const Position& pos, const std::string& text) {
  const std::string where = " in " + pos.fen();
  if (text.empty() || text == "0000" || text == "(none)")
    return "'" + text + "' (no move) although there are legal moves" + where;
  for (const ExtMove& e : MoveList(pos)) {
    Move m = e.move;
    std::string uci = to_uci(m);
    if (m.kind() == CASTLING && text.size() == 4 && text.substr(0, 2) == uci.substr(0, 2)) {
      // stk's castling move is encoded king-to-destination; find the rook the text points at.
      Square rook_from = make_square(m.to() > m.from() ? 7 : 0, rank_of(m.from()));
      if (text.substr(2, 2) == square_name(rook_from))
        return "'" + text +
               "' is castling written king-takes-rook (Chess960 notation); standard chess writes '" +
               uci + "'" + where;
    }
    if (m.kind() == PROMOTION && uci.compare(0, 4, text, 0, 4) == 0) {
      if (text.size() == 4)
        return "'" + text + "' is a promotion without its piece letter (e.g. '" + uci + "')" +
               where;
      if (text.size() == 5 && std::isupper(static_cast<unsigned char>(text[4])) &&
          char(std::tolower(static_cast<unsigned char>(text[4]))) == uci[4])
        return "'" + text + "': UCI writes the promotion piece in lower case ('" + uci + "')" +
               where;
    }
  }
  return "'" + text + "' is not a legal move" + where;
}

PvFindings check_pv(const Position& root, const uci::InfoLine& info, bool strict) {
  PvFindings f;
  Position pos = root;
  for (std::size_t i = 0; i < info.pv.size(); ++i) {
    const std::string& text = info.pv[i];
    if (!has_legal_move(pos)) {
      f.errors.push_back({"pv move " + std::to_string(i + 1) + " '" + text + "' comes after " +
                              (pos.in_check() ? "checkmate" : "stalemate") + " (" + pos.fen() + ")",
                          "pv-after-mate"});
      return f;
    }
    auto m = parse_uci(pos, text);
    if (!m) {
      f.errors.push_back(
          {"pv move " + std::to_string(i + 1) + ": " + why_illegal(pos, text), "illegal-pv"});
      return f;
    }
    pos.make_move(*m);
    ++f.plies;
  }
  const bool ends_in_mate = is_checkmate(pos);
  if (info.score_kind != uci::InfoLine::Score::Mate) {
    if (ends_in_mate && !info.pv.empty() && !info.bound())
      f.warnings.push_back("pv ends in checkmate after " + std::to_string(f.plies) +
                           " plies but the score is cp " + std::to_string(info.score));
    return f;
  }
  if (info.bound()) return f;  // a bound on a mate score: the line's length is not pinned down
  const int n = info.score;
  const int need = n > 0 ? 2 * n - 1 : -2 * n;
  const std::string score = "score mate " + std::to_string(n);
  if (ends_in_mate && f.plies != need) {
    f.errors.push_back({score + " but the pv mates after " + std::to_string(f.plies) +
                            " plies, not " + std::to_string(need),
                        "mate-pv-inconsistent"});
    return f;
  }
  if (f.plies < need) {
    f.truncated_mate = true;
    std::string text = score + " with a pv of " + std::to_string(f.plies) + " plies (mate needs " +
                       std::to_string(need) + "): truncated";
    if (strict) f.errors.push_back({text, "truncated-mate-pv"});
    else f.warnings.push_back(text);
    return f;
  }
  // The plies' parity says who is mated, so "mate after exactly `need` plies" is the whole check.
  if (!ends_in_mate || f.plies != need)
    f.errors.push_back({score + " but the position after the pv's " + std::to_string(f.plies) +
                            " plies is not checkmate (" + pos.fen() + ")",
                        "mate-pv-inconsistent"});
  return f;
}

}  // namespace stk::harness::ucicheck
