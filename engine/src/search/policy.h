// Compile-time instrumentation of the search. Every pruning and reduction decision calls
// exactly one hook of the policy; the default policy's hooks are empty and never called, so
// the normal build pays nothing. Audits (shadow search, fail-high collection) supply their own.
#pragma once

#include <cstdint>

#include "types.h"

namespace stk::search {

enum class Mechanism { Lmr, Lmp, Futility, SeePrune, NullMove, StaticNull };
constexpr int kMechanismCount = 6;

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

// Searches whose result a decision or an audit's control is judged against (audit policies mark
// their undo journals when one begins; see "Control searches" below).
enum class JudgedSearch {
  ReducedMove,  // the reduced null-window search of a late move (LMR)
  NullMove,     // the null-move search
  FullMove,     // an unreduced null-window search of a move at a non-PV node
  Node,         // a non-PV node's move loop (not in check)
};
constexpr int kJudgedSearchCount = 4;

// What a hook sees of the node that made the decision.
struct DecisionContext {
  int ply;
  int depth;  // remaining depth at the node
  int alpha, beta;
  int static_eval;
  int move_count;  // 1-based ordinal of the move (0 for node-level decisions)
};

// A policy is two interfaces, each a concept of its own (search/worker.h checks both, so a hook
// missing or misspelt fails to compile):
//   observer (ObserverPolicy): what a collector or audit observes of the search: every node,
//     every pruning and reduction decision, the fail-high collection records;
//   shadow control (ShadowControlPolicy): what only a shadow audit needs to re-search a decision
//     in isolation: the judged-search marks, the writes to move-ordering memory, the guards that
//     turn bound-fabricating mechanisms off in a shadow search, the table.
// A policy implements an interface whole, or takes its empty version whole: NoObserver /
// NoShadowControl, inherited publicly; or privately with a using-declaration for each empty hook it
// keeps, so that a hook it means to write but misspells leaves the real name inaccessible and
// the concept unsatisfied.
//
// Hook arguments common to the decision hooks: `W` the worker, `S` a ShadowAccess (worker.h:
// references to the worker's node count, stop state, seldepth and budget, which an audit saves
// and restores around a shadow search), `ss` the stack entry of the deciding node, `cut_node`
// the node type the move's (or the node's) full search would be given.

// The observer interface, every hook empty.
struct NoObserver {
  // Every node (search and quiescence), after it is counted; the position is the node's.
  template <class W, class P>
  void on_node(W&, P&) {}
  // A reduced null-window search of `move` failed low (position: after the move; `ss + 1` is
  // the child). `score` is the parent's view; `reduced_cut_node` is what the reduced search was
  // given, `child_cut_node` what the full-depth re-search would pass.
  template <class W, class S, class P, class E, class M>
  void on_reduced_fail_low(W&, S, P&, E* ss, M, const DecisionContext&, int reduction,
                           int reduced_depth, int full_depth, int score, bool reduced_cut_node,
                           bool child_cut_node) {}
  // `move` is skipped by LMP, futility or SEE pruning (position: before the move).
  // `would_be_depth` is the depth its full search would have had.
  template <class W, class S, class P, class E, class M>
  void on_pruned(W&, S, Mechanism, P&, E* ss, M, const DecisionContext&, int would_be_depth,
                 bool child_cut_node) {}
  // The node returns early on a null-move or static-null-move cut-off (position: the node's).
  // `null_depth`: the depth the null-move search was given (0 for the static null move).
  template <class W, class S, class P, class E>
  void on_node_cutoff(W&, S, Mechanism, P&, E* ss, const DecisionContext&, int score, bool cut_node,
                      int null_depth) {}
  // An unreduced null-window search of `move` at a non-PV node failed low (position: after the
  // move; `score` the parent's view, `child_cut_node` what the search was given).
  template <class W, class S, class P, class E, class M>
  void on_full_fail_low(W&, S, P&, E* ss, M, const DecisionContext&, int depth, int score,
                        bool child_cut_node) {}
  // A non-PV node (not in check) searched its moves and failed high (position: the node's).
  template <class W, class S, class P, class E>
  void on_node_fail_high(W&, S, P&, E* ss, const DecisionContext&, int score, bool cut_node) {}

  // Fail-high collection (docs/fail-high-predictor.md). kCollectFh policies see every
  // gate-1 node: fh_begin_node decides (sampling) whether the node is logged and returns its id,
  // or -1. A logged node is searched without static-null / null-move cut-offs and move pruning,
  // its eligible moves without reduction, so labels are full-depth results; fh_record receives
  // each record (a move's after its search, the whole node's at the end with Move::none()),
  // with the node's position.
  static constexpr bool kCollectFh = false;
  long fh_begin_node(int depth) { return -1; }
  template <class P, class M, class I>
  void fh_record(const P& pos, long node_id, M move, const I& inputs, bool label, int prediction,
                 int ply, int static_eval) {}
};

// The shadow-control interface, every hook empty (the real search, as the engine runs it).
struct NoShadowControl {
  // Control searches: a decision's own search, or a search the real search did and whose outcome
  // is known, repeated under the audit's isolation. The engine brackets each judged search with
  // on_search_begin/on_search_end (an audit marks its undo journals there, so a shadow search can
  // start from the state the judged search started from); the observer's decision hooks between
  // them (on_reduced_fail_low, on_node_cutoff for the null move, on_full_fail_low,
  // on_node_fail_high) run while the mark is open. `depth`: the remaining depth of the node that
  // starts the judged search (the cell its decisions are counted in).
  template <class W, class E>
  void on_search_begin(W&, JudgedSearch, E* ss, int depth) {}
  template <class W, class E>
  void on_search_end(W&, JudgedSearch, E* ss) {}
  // Writes to move-ordering memory, before they happen: the quiet-move statistics of a cut
  // (killers of `ss`, history of `best` and `quiets`, the countermove slot), and the reset of the
  // killers of `entry` at a node's start. Audits journal them to restore the state of a mark.
  template <class W, class P, class E, class M>
  void on_quiet_stats(W&, const P&, E* ss, M best, const M* quiets, int quiet_count) {}
  template <class E>
  void on_killers_reset(E* entry) {}
  // Every search() call, before the depth <= 0 hand-over to quiescence: audits record the depth a
  // shadow search's root was entered with.
  template <class E>
  void on_search_entry(E* ss, int depth) {}

  // Shadow-search guards (see worker_impl.h, "Shadow searches").
  // True while a shadow search runs: disables every mechanism that fabricates a bound.
  bool in_shadow() const { return false; }
  // A shadow search reached a path that fabricates a bound (see worker_impl.h): discard it.
  void shadow_fabricated() {}
  // No null-move / static-null cut-off at `ply` (a node-cutoff audit's shadow root).
  bool shadow_skip_node_cutoffs(int ply) const { return false; }
  // Internal iterative reduction off at `ply` (a shadow root, unless the audit replays the real
  // search exactly); mate-distance pruning off (a shadow search, same exception).
  bool shadow_skip_iir(int ply) const { return false; }
  bool shadow_skip_mate_distance() const { return false; }
  // The table a search uses: the real one, or what an audit puts in its place (any type with
  // probe(key) and store(...) of TranspositionTable; search_table() returns it by value).
  template <class T>
  T& table(T& real) {
    return real;
  }
};

// The trace interface (stk-harness bench-diff, docs/harnesses/bench-diff.md): one record per event
// of the search, in the order the search meets them, so that two builds' streams can be compared
// record by record. A policy traces when it declares `static constexpr bool kTrace = true` and
// `void trace(const TraceRecord&)` (search/worker.h checks the hook when kTrace is true); every
// trace call sits behind `if constexpr`, so a policy without kTrace (NoPolicy, every audit)
// compiles none of them. The fields each event fills (unused ones are 0):
enum class TraceEvent : std::uint8_t {
  Iteration,   // root: an (aspiration) search of the iteration starts; a depth, b alpha, c beta
  RootScore,   // root: that search's score; a score
  Node,        // a search node is entered (counted); a depth, b alpha, c beta, d 1 PV node |
               // 2 cut node, key
  QNode,       // a quiescence node is entered; b alpha, c beta, d 1 PV node, key
  TtHit,       // the table has an entry; move the table move, a depth, b bound, c score, d eval
  TtCut,       // the node returns the table's score; a score
  Return,      // an early return; a the TraceReturn, b the value
  Eval,        // static evaluation; a static eval, b eval (refined by the table), c improving
  StaticNull,  // static null move (reverse futility) cut-off; a the value returned
  NullMove,    // the null-move search starts; a its reduction, b its depth
  NullResult,  // its result; a score, b 1 when the node is cut off
  Iir,         // internal iterative reduction; a the reduced depth
  Move,        // a move is picked; move, a move count (0: skipped by LMP already), b the
               // reduction table's entry at (depth, move count), c lmr depth, d gives check,
               // e the node's depth (after IIR: the table's row)
  Lmp,         // late move pruning skips move; a move count
  Futility,    // futility pruning skips move; a move count
  SeePrune,    // SEE pruning skips move; a move count
  See,         // a static exchange evaluation; move, a threshold, b result, c the TraceSeeSite
  Search,      // move is searched; a move count, b new depth, c extension
  Lmr,         // late move reduction of move; a reduction, b reduced depth
  Score,       // a child search returned; move, a the TraceChild, b score (the parent's view)
  QSkip,       // quiescence skips move; a the TraceQSkip
  StandPat,    // quiescence stands pat at or above beta; a the value returned
  Exit,        // a node's move loop ended; move the best move, a best score, b bound
};

enum class TraceReturn : std::uint8_t { Draw, Horizon, MateDistance, NoMoves, AllPruned, Stopped };
enum class TraceSeeSite : std::uint8_t { Ordering, PruneQuiet, PruneNoisy, LosingCapture, QSearch };
enum class TraceChild : std::uint8_t { Pv, NullWindow, Reduced, ReSearch, PvReSearch, QSearch };
enum class TraceQSkip : std::uint8_t { Underpromotion, Delta };

struct TraceRecord {
  TraceEvent event;
  int ply;
  Move move;
  int a, b, c, d;
  Key key;
  int e;
};

// The empty trace interface: what NoPolicy declares (no policy has to).
struct NoTrace {
  static constexpr bool kTrace = false;
  void trace(const TraceRecord&) {}
};

// The normal build: both interfaces empty. `kEnabled` false lets the search skip even the
// argument set-up of every hook, and every shadow-search guard, with `if constexpr` (kCollectFh
// alone turns the fail-high collection hooks on).
struct NoPolicy : NoObserver, NoShadowControl, NoTrace {
  static constexpr bool kEnabled = false;
  // The fail-high predictor's decisions are compiled in only where kPredictor is true: the
  // searcher runs Worker<PredictorPolicy> while the FHPredictor option is on, so the normal
  // build's search (predictor off) contains none of its code.
  static constexpr bool kPredictor = false;
};

// The normal build with the fail-high predictor's decisions compiled in (FHPredictor on).
struct PredictorPolicy : NoPolicy {
  static constexpr bool kPredictor = true;
};

}  // namespace stk::search
