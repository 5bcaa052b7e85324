#include "uci/position_command.h"

#include "notation.h"

namespace stk::uci {

std::optional<std::string> parse_position(std::istream& args, Position& out) {
  std::string token, fen;
  args >> token;
  if (token == "startpos") {
    fen = Position::kStartFen;
    if (args >> token && token != "moves")
      return "expected 'moves' after 'startpos', got '" + token + "'";
  } else if (token == "fen") {
    while (args >> token && token != "moves") fen += (fen.empty() ? "" : " ") + token;
  } else {
    return "expected 'startpos' or 'fen', got '" + token + "'";
  }
  if (auto err = out.set(fen)) return "bad FEN '" + fen + "': " + *err;
  if (token != "moves") return std::nullopt;
  for (int ply = 1; args >> token; ++ply) {
    auto m = parse_uci(out, token);
    if (!m)
      return "illegal move '" + token + "' (move " + std::to_string(ply) + " of the list) in " +
             out.fen();
    out.make_move(*m);
  }
  return std::nullopt;
}

}  // namespace stk::uci
