// Compile-time instrumentation of the search. Every pruning and reduction decision calls
// exactly one hook of the policy; the default policy's hooks are empty and inlined away, so
// the normal build pays nothing. Audits (shadow search, fail-high collection) supply their own.
#pragma once

namespace stk::search {

enum class Mechanism { Lmr, Lmp, Futility, SeePrune, NullMove, StaticNull };

constexpr const char* mechanism_name(Mechanism m) {
  switch (m) {
    case Mechanism::Lmr: return "lmr";
    case Mechanism::Lmp: return "lmp";
    case Mechanism::Futility: return "futility";
    case Mechanism::SeePrune: return "see";
    case Mechanism::NullMove: return "null_move";
    case Mechanism::StaticNull: return "static_null";
  }
  return "?";
}

// What a hook sees of the node that made the decision.
struct DecisionContext {
  int ply;
  int depth;      // remaining depth at the node
  int alpha, beta;
  int static_eval;
  int move_count;  // 1-based ordinal of the move (0 for node-level decisions)
};

// The normal build. A policy provides the same members; `kEnabled` false lets the search skip
// even the argument set-up of every hook with `if constexpr`.
struct NoPolicy {
  static constexpr bool kEnabled = false;
  // Every node (search and quiescence), after it is counted; the position is the node's.
  template <class W, class P>
  void on_node(W&, P&) {}
  // A reduced null-window search of `move` failed low (position: after the move).
  template <class W, class P, class M>
  void on_reduced_fail_low(W&, P&, M, const DecisionContext&, int reduced_depth, int full_depth,
                           int score) {}
  // `move` is skipped by LMP, futility or SEE pruning (position: before the move).
  template <class W, class P, class M>
  void on_pruned(W&, Mechanism, P&, M, const DecisionContext&, int would_be_depth) {}
  // The node returns early on a null-move or static-null-move cut-off.
  template <class W, class P>
  void on_node_cutoff(W&, Mechanism, P&, const DecisionContext&, int score) {}
};

}  // namespace stk::search
