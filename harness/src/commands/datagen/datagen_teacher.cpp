#include "commands/datagen/datagen_teacher.h"

#include <cstdlib>
#include <stdexcept>

#include "movegen.h"
#include "notation.h"
#include "search/search.h"
#include "uci_client/uci_lines.h"

namespace stk::harness::datagen {

Teacher::Teacher(const std::string& command, std::uint64_t nodes)
    : process_(command), nodes_(nodes) {}

void Teacher::new_game() {
  process_.send("ucinewgame");
  process_.sync();
}

bool read_label(const std::vector<std::string>& lines, Label& out) {
  out = Label{};
  bool found = false;
  for (const std::string& line : lines) {
    if (auto best = uci::parse_bestmove(line)) out.best = best->move;
    const auto info = uci::parse_info(line);
    if (!info || info->score_kind == uci::InfoLine::Score::None || info->bound()) continue;
    if (info->multipv && *info->multipv != 1) continue;
    found = true;
    out.mate = info->score_kind == uci::InfoLine::Score::Mate;
    if (!out.mate) {
      out.score = info->score;
      continue;
    }
    // "mate N": N moves (2N-1 plies) to mate for the side to move; "mate -N": it is mated.
    const int plies = info->score > 0 ? 2 * info->score - 1 : -2 * info->score;
    out.score = info->score > 0 ? search::kValueMate - plies : -(search::kValueMate - plies);
  }
  return found && !out.best.empty();
}

Label Teacher::label(const Position& pos) {
  const std::string fen = pos.fen();
  auto fail = [&](const std::string& why) {
    return std::runtime_error("teacher " + process_.path() + ": " + why + " for " + fen);
  };
  if (!process_.send("position fen " + fen) || !process_.send("go nodes " + std::to_string(nodes_)))
    throw fail("does not read its input");
  std::vector<std::string> lines;
  try {
    lines = process_.read_until([](const std::string& l) { return l.starts_with("bestmove"); },
                                timeout_);
  } catch (const std::exception& e) {
    throw fail(std::string("gave no bestmove (") + e.what() + ")");
  }
  Label out;
  if (!read_label(lines, out)) throw fail("printed no score before bestmove");
  const auto move = parse_uci(pos, out.best);
  if (!move || !MoveList(pos).contains(*move))
    throw fail("answered the illegal best move '" + out.best + "'");
  out.move = *move;
  return out;
}

}  // namespace stk::harness::datagen
