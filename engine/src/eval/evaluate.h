// The evaluation the search calls: NNUE when the search was given a network, classical
// otherwise. push()/pop() mirror make/unmake so the NNUE accumulator stack follows the tree
// incrementally. The network is owned by whoever configures the search (search::Searcher, or a
// harness's own FreshSearch); the evaluator shares it.
#pragma once

#include <memory>

#include "eval/classical.h"
#include "nnue/accumulator.h"
#include "nnue/network.h"
#include "position.h"

namespace stk::eval {

class Evaluator {
 public:
  // The network later searches evaluate with; null: classical evaluation. Not while a search runs.
  void set_network(std::shared_ptr<const nnue::Network> net) { net_ = std::move(net); }
  const std::shared_ptr<const nnue::Network>& network() const { return net_; }

  // Called at the root before a search: starts a fresh accumulator stack.
  void reset(const Position& pos) {
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
  std::shared_ptr<const nnue::Network> net_;
  nnue::AccumulatorStack stack_;
};

}  // namespace stk::eval
