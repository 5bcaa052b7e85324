#include "search/tt.h"

#include <algorithm>

namespace stk::search {

bool TranspositionTable::resize(std::size_t mb) {
  const std::size_t n = std::max<std::size_t>(1, mb) * 1024 * 1024 / sizeof(TTEntry);
  std::vector<TTEntry> fresh;  // allocated beside the old table, which stays on failure
  try {
    fresh.resize(n);
  } catch (const std::exception&) {  // bad_alloc (a memory limit), length_error
    return false;
  }
  table_.swap(fresh);
  generation_ = 0;
  return true;
}

void TranspositionTable::clear() {
  std::fill(table_.begin(), table_.end(), TTEntry{});
  generation_ = 0;
}

void TranspositionTable::store_entry(TTEntry& e, std::uint8_t generation, Key key, Move move,
                                     int score, int eval, int depth, Bound bound) {
  bool same = e.key == key;
  // Keep a deeper entry of the current search for another position; replace anything else.
  if (!same && (e.gen_bound >> 2) == generation && e.depth > depth + 2 && bound != BOUND_EXACT)
    return;
  if (same && bound != BOUND_EXACT && depth + 3 < e.depth) return;
  if (move != Move::none() || !same) e.move = move.raw();
  e.key = key;
  e.score = std::int16_t(score);
  e.eval = std::int16_t(eval);
  e.depth = std::int8_t(std::clamp(depth, -1, 127));
  e.gen_bound = std::uint8_t(generation << 2 | bound);
}

int TranspositionTable::hashfull() const {
  int n = 0, total = int(std::min<std::size_t>(1000, table_.size()));
  for (int i = 0; i < total; ++i)
    n += table_[std::size_t(i)].bound() != BOUND_NONE &&
         (table_[std::size_t(i)].gen_bound >> 2) == generation_;
  return total ? n * 1000 / total : 0;
}

}  // namespace stk::search
