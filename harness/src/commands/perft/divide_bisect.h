// Narrows a perft mismatch to the shortest move line whose count differs from a reference
// UCI engine's ("go perft" divide), descending one ply at a time.
#pragma once

#include <string>
#include <vector>

#include "uci_client/uci_process.h"

namespace stk::harness {

struct BisectResult {
  std::string fen;                 // the root position
  std::vector<std::string> moves;  // the line, in UCI notation
  std::string finding;             // what differs at the end of the line
  std::string describe() const;    // "FEN + moves: finding"
};

BisectResult bisect_perft(const std::string& fen, int depth, UciProcess& reference);

}  // namespace stk::harness
