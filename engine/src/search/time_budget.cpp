#include "search/time_budget.h"

#include <algorithm>

namespace stk::search {

Budget time_budget(const Position& pos, const Limits& l) {
  Budget b;
  b.node_limit = l.nodes;
  if (l.depth > 0) b.max_depth = std::min(l.depth, kMaxPly - 1);
  if (l.movetime_ms > 0) b.soft_s = b.hard_s = l.movetime_ms / 1000.0;
  const Color us = pos.side_to_move();
  if (l.infinite || l.time_ms[us] < 0) return b;  // no clock given for the side to move
  if (l.time_ms[us] == 0) {  // nothing left to think with (the increment comes after the move)
    b.max_depth = 1;
    return b;
  }
  // A share of the remaining time plus most of the increment, at most a fifth of what is left,
  // and never past the clock less a reserve for the move to reach the GUI.
  const double left = l.time_ms[us] / 1000.0, inc = l.inc_ms[us] / 1000.0;
  const int moves = l.movestogo > 0 ? std::min(l.movestogo, 40) : 30;
  const double reserve = std::min(0.05, left * 0.25);
  const double opt = left / moves + 0.8 * inc;
  const double cap = std::min({left * 0.2 + inc * 0.5, opt * 4, left - reserve});
  // A floor of 5 ms for the hard limit, but never past cap: a clock of a few ms stays unspent.
  const double hard = std::max(cap - 0.02, std::min(0.005, cap)),
               soft = std::min(std::min(opt, cap) * 0.6, hard);
  b.soft_s = b.soft_s > 0 ? std::min(b.soft_s, soft) : soft;
  b.hard_s = b.hard_s > 0 ? std::min(b.hard_s, hard) : hard;
  return b;
}

bool last_iteration(const Budget& budget, int depth, double elapsed_s) {
  return depth >= budget.max_depth || (budget.soft_s > 0 && elapsed_s >= budget.soft_s);
}

}  // namespace stk::search
