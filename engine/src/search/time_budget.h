// The limits of one search as the worker reads them: nodes, depth, and seconds derived from the
// UCI clock of the side to move. A small pure function so that the clock rules are tested directly.
#pragma once

#include <cstdint>

#include "position.h"
#include "search/search.h"

namespace stk::search {

struct Budget {
  std::uint64_t node_limit = 0;   // 0: none
  double soft_s = 0, hard_s = 0;  // 0: none. Soft: no new iteration after it; hard: stop at once
  int max_depth = kMaxPly - 1;
};

// From "go": depth, nodes, movetime, and the clock and increment of the side to move only (the
// opponent's clock never counts). Our clock at 0, whatever the increment: the least search (depth 1).
// The hard limit never exceeds the time left, whatever the increment (added only after the move).
Budget time_budget(const Position& pos, const Limits& limits);

// Whether no new iteration starts after one that completed `depth` at `elapsed_s` seconds: the
// one rule of a search on its own and of a ponder search after ponderhit (its time from then).
bool last_iteration(const Budget& budget, int depth, double elapsed_s);

}  // namespace stk::search
