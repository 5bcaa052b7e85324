// Fully legal move generation: pins and check evasions are resolved during generation,
// so every generated move is legal and perft can count leaves without making them.
#pragma once

#include "position.h"

namespace stk {

enum GenType {
  NOISY,  // captures (en passant included) and all promotions
  QUIET,  // everything else: quiet moves and castling
  LEGAL   // both
};

struct ExtMove {
  Move move;
  int score;
};

template <GenType T>
ExtMove* generate(const Position& pos, ExtMove* list);

class MoveList {
 public:
  explicit MoveList(const Position& pos, GenType t = LEGAL);
  const ExtMove* begin() const { return moves_; }
  const ExtMove* end() const { return last_; }
  ExtMove* begin() { return moves_; }
  ExtMove* end() { return last_; }
  std::size_t size() const { return std::size_t(last_ - moves_); }
  bool contains(Move m) const {
    for (const ExtMove& e : *this)
      if (e.move == m) return true;
    return false;
  }

 private:
  ExtMove moves_[256];
  ExtMove* last_;
};

}  // namespace stk
