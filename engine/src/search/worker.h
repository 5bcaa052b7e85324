// The search proper: iterative deepening, aspiration windows, PVS, quiescence, and the usual
// pruning and reductions, each decision going through one place (and one Policy hook).
// A template on the instrumentation policy; the engine instantiates it with NoPolicy.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <concepts>
#include <functional>
#include <memory>
#include <optional>

#include "eval/evaluate.h"
#include "movegen.h"
#include "position.h"
#include "search/fhmodel.h"
#include "search/heuristics.h"
#include "search/policy.h"
#include "search/search.h"
#include "search/time_budget.h"
#include "search/tt.h"

namespace stk::search {

constexpr int kValueNone = 32002;

inline int mate_in(int ply) { return kValueMate - ply; }
inline int mated_in(int ply) { return -kValueMate + ply; }
// Mate scores are stored relative to the node, not the root.
inline int value_to_tt(int v, int ply) {
  return v >= kValueMateInMaxPly ? v + ply : v <= -kValueMateInMaxPly ? v - ply : v;
}
inline int value_from_tt(int v, int ply) {
  return v >= kValueMateInMaxPly ? v - ply : v <= -kValueMateInMaxPly ? v + ply : v;
}

struct StackEntry {
  Move pv[kMaxPly + 1];
  int pv_length = 0;
  Move killers[2];
  Move move = Move::none();  // the move made at this ply
  Piece moved_piece = NO_PIECE;
  int static_eval = kValueNone;
  int ply = 0;

  // The principal variation here becomes `m` followed by the child's.
  void update_pv(Move m) {
    pv[0] = m;
    std::copy_n(this[1].pv, this[1].pv_length, pv + 1);
    pv_length = this[1].pv_length + 1;
  }
};

// What a shadow search saves and restores of the worker (the policy's S argument): its node
// count, stop state, seldepth and budget. References, so it is passed by value.
struct ShadowAccess {
  std::uint64_t& nodes;
  bool& stopped;
  int& seldepth;
  Budget& budget;
};

// The two policy interfaces of search/policy.h, checked against the arguments the search passes
// (any worker type: the hooks take it as a template parameter).
namespace policy_check {
struct AnyWorker {};
}  // namespace policy_check

template <class P>
concept ObserverPolicy = requires(P& p, policy_check::AnyWorker& w, ShadowAccess s, Position& pos,
                                  StackEntry* ss, Move m, const DecisionContext& ctx,
                                  const fh::Inputs& in) {
  { P::kCollectFh } -> std::convertible_to<bool>;
  p.on_node(w, pos);
  p.on_reduced_fail_low(w, s, pos, ss, m, ctx, 1, 1, 1, 0, true, true);
  p.on_pruned(w, s, Mechanism::Lmp, pos, ss, m, ctx, 1, true);
  p.on_node_cutoff(w, s, Mechanism::NullMove, pos, ss, ctx, 0, true, 1);
  p.on_full_fail_low(w, s, pos, ss, m, ctx, 1, 0, true);
  p.on_node_fail_high(w, s, pos, ss, ctx, 0, true);
  { p.fh_begin_node(1) } -> std::convertible_to<long>;
  p.fh_record(pos, 0L, m, in, true, 0, 0, 0);
};

template <class P>
concept ShadowControlPolicy = requires(P& p, const P& cp, policy_check::AnyWorker& w, Position& pos,
                                       StackEntry* ss, Move m, const Move* quiets,
                                       TranspositionTable& tt) {
  p.on_search_begin(w, JudgedSearch::Node, ss, 1);
  p.on_search_end(w, JudgedSearch::Node, ss);
  p.on_quiet_stats(w, pos, ss, m, quiets, 0);
  p.on_killers_reset(ss);
  p.on_search_entry(ss, 1);
  { cp.in_shadow() } -> std::convertible_to<bool>;
  p.shadow_fabricated();
  { cp.shadow_skip_node_cutoffs(0) } -> std::convertible_to<bool>;
  { cp.shadow_skip_iir(0) } -> std::convertible_to<bool>;
  { cp.shadow_skip_mate_distance() } -> std::convertible_to<bool>;
  p.table(tt);
};

template <class P>
concept SearchPolicy = ObserverPolicy<P> && ShadowControlPolicy<P> && requires {
  { P::kEnabled } -> std::convertible_to<bool>;
  { P::kPredictor } -> std::convertible_to<bool>;
};

// The trace interface (search/policy.h): a policy traces when it declares kTrace true, and then
// must have the hook.
template <class P>
concept TracePolicy = requires(P& p, const TraceRecord& r) {
  p.trace(r);
};
template <class P>
constexpr bool traces() {
  if constexpr (requires { P::kTrace; }) return bool(P::kTrace);
  else return false;
}

template <class Policy>
class Worker {
  static_assert(ObserverPolicy<Policy>,
                "the policy's observer hooks do not match search/policy.h (NoObserver)");
  static_assert(ShadowControlPolicy<Policy>,
                "the policy's shadow-control hooks do not match search/policy.h (NoShadowControl)");
  static_assert(SearchPolicy<Policy>, "a search policy declares kEnabled and kPredictor");
  static constexpr bool kTrace = traces<Policy>();
  static_assert(!kTrace || TracePolicy<Policy>, "a tracing policy has trace(const TraceRecord&)");

 public:
  Worker(TranspositionTable& tt, Heuristics& h, eval::Evaluator& ev, Policy& policy)
      : tt_(tt), heur_(h), eval_(ev), policy_(policy) {}

  Result run(Position& pos, const Budget& budget, const std::atomic<bool>& stop_flag,
             const std::function<void(const Iteration&)>& on_iteration);

  // Entry points also used by audit policies (shadow searches).
  template <bool PvNode>
  int search(Position& pos, StackEntry* ss, int alpha, int beta, int depth, bool cut_node);
  template <bool PvNode>
  int qsearch(Position& pos, StackEntry* ss, int alpha, int beta);

  // The fail-high predictor's settings (off by default); `s` must outlive the searches.
  void set_fh(const fh::Settings& s) {
    fh_ = &s;
    fh_lmr_tier1_p16_ = fh::threshold_p16(s.lmr_tier1);
    fh_lmr_tier2_p16_ = fh::threshold_p16(s.lmr_tier2);
    fh_static_null_p16_ = fh::threshold_p16(s.static_null);
  }

  std::uint64_t nodes() const { return nodes_; }
  bool stopped() const { return stopped_; }
  int root_depth() const { return root_depth_; }  // the iteration's depth (check extensions)
  Policy& policy() { return policy_; }
  Heuristics& heuristics() { return heur_; }
  TranspositionTable& tt() { return tt_; }
  eval::Evaluator& evaluator() { return eval_; }

  void do_move(Position& pos, StackEntry* ss, Move m) {
    ss->move = m;
    ss->moved_piece = pos.moved_piece(m);
    pos.make_move(m);
    eval_.push(pos);
  }
  void undo_move(Position& pos) {
    eval_.pop();
    pos.unmake_move();
  }
  void do_null(Position& pos, StackEntry* ss) {
    ss->move = Move::null();
    ss->moved_piece = NO_PIECE;
    pos.make_null();
    eval_.push(pos);
  }
  void undo_null(Position& pos) {
    eval_.pop();
    pos.unmake_null();
  }
  // The state a shadow search saves and restores (the S argument of the decision hooks).
  ShadowAccess shadow_access() { return {nodes_, stopped_, seldepth_, budget_}; }

 private:
  bool out_of_budget();
  void score_moves(const Position& pos, ExtMove* begin, ExtMove* end, Move tt_move,
                   const StackEntry* ss) const;
  static Move pick_next(ExtMove* cur, ExtMove* end) {
    ExtMove* best = std::max_element(cur, end, [](const ExtMove& a, const ExtMove& b) {
      return a.score < b.score;
    });
    std::swap(*cur, *best);
    return cur->move;
  }
  // One trace record (call it behind `if constexpr (kTrace)`: no other policy compiles it).
  void trace(TraceEvent event, int ply, Move m = Move::none(), int a = 0, int b = 0, int c = 0,
             int d = 0, Key key = 0, int e = 0) const {
    policy_.trace(TraceRecord{event, ply, m, a, b, c, d, key, e});
  }
  // pos.see_ge(m, threshold), traced where the policy traces.
  bool see_ge(const Position& pos, Move m, int threshold, TraceSeeSite site, int ply) const {
    const bool result = pos.see_ge(m, threshold);
    if constexpr (kTrace) trace(TraceEvent::See, ply, m, threshold, result, int(site));
    return result;
  }
  // The value of a drawn position or one at the ply horizon (traced as the node's return).
  std::optional<int> draw_or_horizon(const Position& pos, int ply, bool in_check);
  void update_quiet_stats(const Position& pos, StackEntry* ss, Move best, int depth,
                          const Move* quiets, int quiet_count);
  // The predictor's node-level inputs (side, depth, gap, trends, parent's node-type guess, phase).
  static fh::Inputs node_inputs(const StackEntry* ss, fh::Side side, int depth, int gap,
                                bool improving, bool cut_node, const Position& pos);
  // A gate-1 move's inputs, before it is searched.
  fh::Inputs move_inputs(const fh::Inputs& node, const Position& pos, const StackEntry* ss, Move m,
                         Move tt_move, bool losing_capture, int ordinal, int good_captures) const;

  TranspositionTable& tt_;
  Heuristics& heur_;
  eval::Evaluator& eval_;
  Policy& policy_;
  const fh::Settings* fh_ = &kFhOff;
  int fh_lmr_tier1_p16_ = 0, fh_lmr_tier2_p16_ = 0, fh_static_null_p16_ = 0;
  static inline const fh::Settings kFhOff{};
  Budget budget_;
  const std::atomic<bool>* stop_flag_ = nullptr;
  std::chrono::steady_clock::time_point start_;
  std::uint64_t nodes_ = 0;
  int seldepth_ = 0;
  int root_depth_ = 0;
  bool stopped_ = false;
};

// A search from scratch with a caller's policy: its own table, heuristics and evaluator, as
// Searcher::go starts from after clear(). For audits that instantiate Worker<Policy> themselves.
struct FreshSearch {
  TranspositionTable tt;
  std::unique_ptr<Heuristics> heuristics = std::make_unique<Heuristics>();  // 64 KB: off the stack
  eval::Evaluator evaluator;
  fh::Settings fh;  // the fail-high predictor: off unless the caller turns it on

  // `net`: the network the search evaluates with (null: classical evaluation).
  explicit FreshSearch(std::size_t hash_mb, std::shared_ptr<const nnue::Network> net = nullptr) {
    tt.resize(hash_mb);
    heuristics->clear();
    evaluator.set_network(std::move(net));
  }
  // Searches to `depth` (0: no depth limit) or `nodes` (0: no node limit).
  template <class Policy>
  Result run(Position& pos, Policy& policy, int depth, std::uint64_t nodes);
};

}  // namespace stk::search

#include "search/worker_impl.h"

template <class Policy>
stk::search::Result stk::search::FreshSearch::run(Position& pos, Policy& policy, int depth,
                                                  std::uint64_t nodes) {
  Budget budget;
  if (depth > 0) budget.max_depth = std::min(depth, kMaxPly - 1);  // as time_budget caps a go
  budget.node_limit = nodes;
  std::atomic<bool> stop{false};
  Worker<Policy> worker(tt, *heuristics, evaluator, policy);
  worker.set_fh(fh);
  return worker.run(pos, budget, stop, nullptr);
}
