// The evaluation the search calls: NNUE when a network is loaded and enabled for this search,
// classical otherwise. push()/pop() mirror make/unmake so the NNUE accumulator stack follows
// the tree incrementally.
#pragma once

#include <memory>

#include "eval/classical.h"
#include "nnue/evaluate.h"
#include "position.h"

namespace stk::eval {

class Evaluator {
 public:
  // "Use NNUE" for searches of this evaluator; effective only while a network is loaded.
  void set_use_nnue(bool on) { use_nnue_ = on; }
  bool use_nnue() const { return use_nnue_; }

  // Called at the root before a search: takes the active network (if any) for the whole search
  // and starts a fresh accumulator stack.
  void reset(const Position& pos) {
    net_ = use_nnue_ && nnue::enabled() ? nnue::network() : nullptr;
    if (net_) stack_.reset(pos, *net_);
  }
  void push(const Position& pos) {
    if (net_) stack_.push(pos.state().dirty);
  }
  void pop() {
    if (net_) stack_.pop();
  }
  int evaluate(const Position& pos) { return net_ ? stack_.evaluate(pos).eval : classical(pos); }

  bool nnue_active() const { return net_ != nullptr; }
  const nnue::AccumulatorStack& accumulators() const { return stack_; }

 private:
  bool use_nnue_ = false;
  std::shared_ptr<const nnue::Network> net_;
  nnue::AccumulatorStack stack_;
};

}  // namespace stk::eval
