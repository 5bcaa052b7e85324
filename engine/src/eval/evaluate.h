// The evaluation the search calls: classical, or NNUE when a network is loaded and enabled.
// push()/pop() mirror make/unmake so an incremental evaluator can follow the tree.
#pragma once

#include "eval/classical.h"
#include "position.h"

namespace stk::eval {

class Evaluator {
 public:
  // Called at the root before a search: forgets any incremental state.
  void reset(const Position& pos) { (void)pos; }
  void push(const Position& pos) { (void)pos; }
  void pop() {}
  int evaluate(const Position& pos) { return classical(pos); }
};

}  // namespace stk::eval
