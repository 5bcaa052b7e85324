// Transposition table: one 16-byte entry per slot, full key stored, depth-preferred replacement
// with an age so that entries of earlier searches give way.
#pragma once

#include <cstdint>
#include <vector>

#include "types.h"

namespace stk::search {

enum Bound : std::uint8_t { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

struct TTEntry {
  Key key = 0;
  std::uint16_t move = 0;
  std::int16_t score = 0;
  std::int16_t eval = 0;
  std::int8_t depth = 0;
  std::uint8_t gen_bound = 0;  // generation << 2 | bound
  Bound bound() const { return Bound(gen_bound & 3); }
};
static_assert(sizeof(TTEntry) == 16);

class TranspositionTable {
 public:
  // Transactional: false when the memory cannot be had; the previous table is kept then.
  bool resize(std::size_t mb);
  void clear();
  void new_search() { generation_ = std::uint8_t((generation_ + 1) & 63); }
  // Returns the entry for `key` if present, else nullptr.
  const TTEntry* probe(Key key) const { return hit(table_[index(key)], key); }
  void store(Key key, Move move, int score, int eval, int depth, Bound bound) {
    store_entry(table_[index(key)], generation_, key, move, score, eval, depth, bound);
  }
  int hashfull() const;  // permille of the first 1000 slots written in this search
  void prefetch(Key key) const { __builtin_prefetch(&table_[index(key)]); }

  // The rules of probe() and store() on one slot's entry, and read-only slot access: audits
  // (the shadow search's undo journal and slot overlay) reproduce the table without writing it.
  static const TTEntry* hit(const TTEntry& e, Key key) {
    return e.key == key && e.bound() != BOUND_NONE ? &e : nullptr;
  }
  static void store_entry(TTEntry& e, std::uint8_t generation, Key key, Move move, int score,
                          int eval, int depth, Bound bound);
  std::size_t slot(Key key) const { return index(key); }
  const TTEntry& at(std::size_t slot) const { return table_[slot]; }
  std::uint8_t generation() const { return generation_; }

 private:
  std::size_t index(Key key) const { return std::size_t((__uint128_t(key) * table_.size()) >> 64); }
  std::vector<TTEntry> table_;
  std::uint8_t generation_ = 0;
};

}  // namespace stk::search
