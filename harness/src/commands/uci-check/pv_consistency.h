// The legality oracle for what an engine prints, built on stk's perft-verified move generator:
// a move in UCI notation, a PV replayed from the searched position, and a PV's agreement
// with its "score mate N".
#pragma once

#include <string>
#include <vector>

#include "position.h"
#include "uci_client/uci_lines.h"
#include "commands/uci-check/scenario.h"

namespace stk::harness::ucicheck {

bool is_checkmate(const Position& pos);
bool has_legal_move(const Position& pos);

// Why `text` is not a legal move in `pos`, naming the usual notation mistakes (castling written
// king-takes-rook, a promotion without its piece letter or in upper case).
std::string why_illegal(const Position& pos, const std::string& text);

struct PvFindings {
  std::vector<Failure> errors;
  std::vector<std::string>
      warnings;  // a truncated mate PV, a PV ending in mate without a mate score
  bool truncated_mate = false;
  int plies = 0;  // moves replayed legally
};

// Replays info.pv from `root`: every move legal, none after checkmate or stalemate. For an exact
// "score mate N" (no bound): N > 0 ends in the opponent mated after exactly 2N-1 plies, N < 0 in
// the side to move mated after 2|N| plies, N = 0 means the root is mated; a shorter PV is
// truncated (a warning, or an error when `strict`). Bound lines are checked for legality only.
PvFindings check_pv(const Position& root, const uci::InfoLine& info, bool strict);

}  // namespace stk::harness::ucicheck
