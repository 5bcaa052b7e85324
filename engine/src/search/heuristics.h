// Move-ordering memory shared across the nodes of one search: history, countermoves, and the
// late-move-reduction table.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "types.h"

namespace stk::search {

struct Heuristics {
  int history[2][64][64];    // [side][from][to] quiet-move fail-high score
  Move countermove[12][64];  // [piece][to] of the previous move -> refutation
  // [side][from][to] tries and fail-highs at null-window nodes: the fail-high predictor's
  // per-move evidence, kept only while the predictor (or its collection) is on.
  std::uint16_t fh_tries[2][64][64];
  std::uint16_t fh_cuts[2][64][64];

  void clear() {
    std::memset(history, 0, sizeof history);
    std::memset(fh_tries, 0, sizeof fh_tries);
    std::memset(fh_cuts, 0, sizeof fh_cuts);
    for (auto& row : countermove)
      for (Move& m : row) m = Move::none();
  }
  // Gravity update: bounded in [-16384, 16384] whatever the number of updates.
  void update_history(Color c, Move m, int bonus) {
    int& h = history[c][m.from()][m.to()];
    h += bonus - h * std::abs(bonus) / 16384;
  }
  // Halving at saturation keeps the rate and forgets the oldest evidence.
  void update_fh(Color c, Move m, bool cut) {
    std::uint16_t& t = fh_tries[c][m.from()][m.to()];
    std::uint16_t& k = fh_cuts[c][m.from()][m.to()];
    if (t == 65535) t >>= 1, k >>= 1;
    ++t;
    k += cut;
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
