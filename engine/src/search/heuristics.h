// Move-ordering memory shared across the nodes of one search: history, countermoves, and the
// late-move-reduction table.
#pragma once

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "types.h"

namespace stk::search {

struct Heuristics {
  int history[2][64][64];        // [side][from][to] quiet-move fail-high score
  Move countermove[12][64];      // [piece][to] of the previous move -> refutation

  void clear() {
    std::memset(history, 0, sizeof history);
    for (auto& row : countermove)
      for (Move& m : row) m = Move::none();
  }
  // Gravity update: bounded in [-16384, 16384] whatever the number of updates.
  void update_history(Color c, Move m, int bonus) {
    int& h = history[c][m.from()][m.to()];
    h += bonus - h * std::abs(bonus) / 16384;
  }
};

// reductions[d][m]: base late-move reduction at depth d for the m-th move, log(d)*log(m).
struct ReductionTable {
  int r[64][64];
  ReductionTable() {
    for (int d = 0; d < 64; ++d)
      for (int m = 0; m < 64; ++m)
        r[d][m] = d == 0 || m == 0 ? 0 : int(0.75 + std::log(d) * std::log(m) / 2.25);
  }
};
inline const ReductionTable& reductions() {
  static const ReductionTable t;
  return t;
}

}  // namespace stk::search
