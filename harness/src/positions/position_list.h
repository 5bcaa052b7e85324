// Position files for collection: one position per line, the four FEN fields of an EPD line (or all
// six: the counters are kept) and optional operations (`id "..."`); '#' lines and blank lines are
// not positions.
#pragma once

#include <string>
#include <vector>

namespace stk::harness::fhcollect {

struct ListedPosition {
  int line = 0;     // 1-based line in the file
  std::string fen;  // full FEN (move counters added when absent)
  std::string id;   // the id operand or "line N"
};

// Throws InputError "FILE:LINE: reason" for an unreadable file or an invalid position.
std::vector<ListedPosition> read_position_list(const std::string& path);

}  // namespace stk::harness::fhcollect
