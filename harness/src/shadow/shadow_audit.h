// Shadow-search silent-miss audit: a search policy that, at every pruning or reduction decision
// of a real search, searches what the decision skipped and records when the skipped search
// would have changed the node's outcome (a "miss" the real search never saw).
//   LMR       a reduced null-window search failed low: the same move, same window, unreduced
//             depth; a miss is a result > alpha (a fail high of the null window).
//   LMP, futility, SEE: the pruned move at the depth it would have had, null window at alpha;
//             a miss is a result > alpha.
//   null move, static null move: the node searched normally, without those cut-offs at it;
//             a miss is a result < beta.
// Isolation (the shadow search never changes the real one): see worker_impl.h "Shadow
// searches" for the engine side; here: a private table (fresh per audited position, shared by
// its shadow searches, never the real one), history and
// countermoves copied and restored, a private copy of the search stack (killers, moves, evals),
// node count / stop state / seldepth / budget saved and restored, own node cap.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "notation.h"
#include "position.h"
#include "search/worker.h"

namespace stk::harness::shadow {

using search::Mechanism;
constexpr int kDepthCells = 64;  // remaining depth 0..63 (deeper ones counted in 63)

// Compile-time variants: the audit proper is Variant{}; the others are planted defects for the
// audit's own tests (each must be caught by the invariant check or the artifact classifier).
struct Variant {
  bool private_table = true;       // false: the shadow search writes/reads the real table
  bool restore_heuristics = true;  // false: shadow history/countermove updates leak
  bool null_bailout = false;       // the search has the fabricating null-move bailout
  bool neutralize_bailout = true;  // shadow roots never count as "reached by a reduced move"
};

struct Cell {
  std::uint64_t audited = 0;    // decisions whose shadow search completed
  std::uint64_t misses = 0;
  std::uint64_t discarded = 0;  // shadow search hit its node cap or a fabricated-bound path
};
using Counts = std::array<std::array<Cell, kDepthCells>, search::kMechanismCount>;

inline void add(Counts& into, const Counts& from) {
  for (int m = 0; m < search::kMechanismCount; ++m)
    for (int d = 0; d < kDepthCells; ++d) {
      into[m][d].audited += from[m][d].audited;
      into[m][d].misses += from[m][d].misses;
      into[m][d].discarded += from[m][d].discarded;
    }
}

struct Miss {
  Mechanism mechanism = Mechanism::Lmr;
  int ply = 0;
  int depth = 0;          // remaining depth at the deciding node
  int reduction = 0;      // LMR only
  int move_number = 0;    // 0 for node-level decisions
  int shadow_depth = 0;   // depth the shadow search ran at
  int alpha = 0, beta = 0;
  std::optional<int> real_score;  // reduced score (LMR), cut-off score (null/static null)
  int shadow_score = 0;
  std::uint64_t shadow_nodes = 0;
  bool child_cut_node = false;
  std::string fen;        // the deciding node
  Move move = Move::none();  // none for node-level decisions
  std::string root_id;
  std::string root_fen;
  std::vector<Move> path;  // root to the deciding node (Move::null() for null moves)
  // Filled by classify(): open-window values (the deciding node's view) at shadow_depth + i.
  std::vector<int> open_values;
  std::string verdict;  // "genuine", "noise", "mixed", "unclassified"
  bool refuted_at_depth = false;  // the open-window value at shadow_depth contradicts the miss
};

// True when `value` (the deciding node's view) is on the miss side of the audited window.
inline bool on_miss_side(const Miss& m, int value) {
  return m.mechanism == Mechanism::NullMove || m.mechanism == Mechanism::StaticNull ? value < m.beta
                                                                                      : value > m.alpha;
}

template <Variant V>
struct ShadowPolicy : search::NoPolicy {
  static constexpr bool kEnabled = true;
  static constexpr bool kNullBailout = V.null_bailout;

  // Settings.
  bool audit = true;  // false: the same search with no shadow searches (invariant reference)
  std::uint64_t shadow_node_cap = 5'000'000;
  std::string root_id, root_fen;
  // Results.
  Counts counts{};
  std::vector<Miss> misses;
  std::uint64_t shadow_nodes = 0;

  explicit ShadowPolicy(std::size_t shadow_hash_mb = 2) : stack_(search::kMaxPly + 10) {
    private_tt_.resize(shadow_hash_mb);
  }

  // --- guards consulted by the search (worker_impl.h) ---
  bool in_shadow() const { return in_shadow_; }
  bool shadow_root(int ply) const { return in_shadow_ && ply == shadow_root_ply_; }
  bool shadow_skip_node_cutoffs(int ply) const { return shadow_root(ply) && skip_node_cutoffs_; }
  template <class T>
  T& table(T& real) {
    if constexpr (V.private_table) return in_shadow_ ? private_tt_ : real;
    else return real;
  }
  void shadow_fabricated() { fabricated_ = true; }
  bool reduced_at(int ply) const {
    if constexpr (V.neutralize_bailout)
      if (shadow_root(ply)) return false;
    return reduced_[ply];
  }
  void note_reduction(int ply, int r) { reduced_[ply] = r > 0; }

  // --- decision hooks ---
  template <class W, class S, class P, class E, class M>
  void on_reduced_fail_low(W& w, S& access, P& pos, E* ss, M m, const search::DecisionContext& ctx,
                           int reduction, int reduced_depth, int full_depth, int score, bool child_cut) {
    if (in_shadow_ || !audit) return;
    auto v = run_shadow(w, access, ss, ctx.ply + 1, false, [&](E* pss) {
      return -w.template search<false>(pos, pss + 1, -ctx.alpha - 1, -ctx.alpha, full_depth, child_cut);
    });
    if (!record(Mechanism::Lmr, ctx, v)) return;
    pos.unmake_move();  // the deciding node's FEN (the move is made at this hook)
    Miss& x = add_miss(Mechanism::Lmr, pos, ss, ctx, *v, full_depth, child_cut);
    pos.make_move(m);
    x.move = m;
    x.reduction = reduction;
    x.real_score = score;
  }

  template <class W, class S, class P, class E, class M>
  void on_pruned(W& w, S& access, Mechanism mech, P& pos, E* ss, M m, const search::DecisionContext& ctx,
                 int would_be_depth, bool child_cut) {
    if (in_shadow_ || !audit) return;
    auto v = run_shadow(w, access, ss, ctx.ply + 1, false, [&](E* pss) {
      w.do_move(pos, pss, m);
      (pss + 1)->ply = ctx.ply + 1;
      int s = -w.template search<false>(pos, pss + 1, -ctx.alpha - 1, -ctx.alpha, would_be_depth, child_cut);
      w.undo_move(pos);
      return s;
    });
    if (!record(mech, ctx, v)) return;
    Miss& x = add_miss(mech, pos, ss, ctx, *v, would_be_depth, child_cut);
    x.move = m;
  }

  template <class W, class S, class P, class E>
  void on_node_cutoff(W& w, S& access, Mechanism mech, P& pos, E* ss, const search::DecisionContext& ctx,
                      int score, bool cut_node) {
    if (in_shadow_ || !audit) return;
    auto v = run_shadow(w, access, ss, ctx.ply, true, [&](E* pss) {
      return w.template search<false>(pos, pss, ctx.alpha, ctx.beta, ctx.depth, cut_node);
    });
    if (!record(mech, ctx, v)) return;
    Miss& x = add_miss(mech, pos, ss, ctx, *v, ctx.depth, cut_node);
    x.real_score = score;
  }

 private:
  // Counts the decision; true when it is a miss (then the caller fills in a Miss).
  bool record(Mechanism mech, const search::DecisionContext& ctx, const std::optional<int>& v) {
    Cell& c = counts[int(mech)][std::min(std::max(ctx.depth, 0), kDepthCells - 1)];
    if (!v) return ++c.discarded, false;
    ++c.audited;
    const bool node_level = mech == Mechanism::NullMove || mech == Mechanism::StaticNull;
    const bool miss = node_level ? *v < ctx.beta : *v > ctx.alpha;
    if (miss) ++c.misses;
    return miss;
  }

  template <class P, class E>
  Miss& add_miss(Mechanism mech, P& pos, E* ss, const search::DecisionContext& ctx, int v, int shadow_depth,
                 bool child_cut) {
    Miss x;
    x.mechanism = mech;
    x.ply = ctx.ply;
    x.depth = ctx.depth;
    x.move_number = ctx.move_count;
    x.shadow_depth = shadow_depth;
    x.alpha = ctx.alpha;
    x.beta = ctx.beta;
    x.shadow_score = v;
    x.shadow_nodes = last_shadow_nodes_;
    x.child_cut_node = child_cut;
    x.fen = pos.fen();
    x.root_id = root_id;
    x.root_fen = root_fen;
    const E* root = ss - ctx.ply;
    for (int i = 0; i < ctx.ply; ++i) x.path.push_back(root[i].move);
    misses.push_back(std::move(x));
    return misses.back();
  }

  // Runs `body(private_ss)` as an isolated shadow search rooted at `root_ply`; nullopt when it
  // was stopped (node cap, user stop) or reached a fabricated-bound path.
  template <class W, class S, class E, class Body>
  std::optional<int> run_shadow(W& w, S& access, E* ss, int root_ply, bool skip_node_cutoffs, Body&& body) {
    const std::uint64_t saved_nodes = access.nodes;
    const bool saved_stopped = access.stopped;
    const int saved_seldepth = access.seldepth;
    const search::Budget saved_budget = access.budget;
    access.nodes = 0;
    access.stopped = false;
    access.budget.node_limit = shadow_node_cap;
    access.budget.hard_s = access.budget.soft_s = 0;
    if constexpr (V.restore_heuristics) {
      if (!saved_heuristics_) saved_heuristics_ = std::make_unique<search::Heuristics>();
      *saved_heuristics_ = w.heuristics();
    }
    const auto saved_reduced = reduced_;
    // Private stack: the ancestors (history lookups, "improving", the null-move rule) and the
    // deciding node's child entry (its killers) are copied; deeper entries start fresh.
    const int ply = ss->ply;
    E* real_base = ss - ply - 4;
    const int copied = ply + 4 + 2;
    for (int i = 0; i < int(stack_.size()); ++i) {
      if (i < copied) stack_[i] = real_base[i];
      else stack_[i] = E{}, stack_[i].ply = i - 4;
    }
    E* pss = stack_.data() + 4 + ply;
    // The private table is cleared once per audited position (not per shadow search: a 1-2 MB
    // clear per shadow search cost 90% of the audit's time) and aged per shadow search.
    if constexpr (V.private_table) private_tt_.new_search();
    in_shadow_ = true;
    shadow_root_ply_ = root_ply;
    skip_node_cutoffs_ = skip_node_cutoffs;
    fabricated_ = false;

    const int v = body(pss);

    const bool ok = !access.stopped && !fabricated_;
    last_shadow_nodes_ = access.nodes;
    shadow_nodes += access.nodes;
    in_shadow_ = false;
    shadow_root_ply_ = -1;
    reduced_ = saved_reduced;
    if constexpr (V.restore_heuristics) w.heuristics() = *saved_heuristics_;
    access.nodes = saved_nodes;
    access.stopped = saved_stopped;
    access.seldepth = saved_seldepth;
    access.budget = saved_budget;
    if (!ok) return std::nullopt;
    return v;
  }

  bool in_shadow_ = false;
  int shadow_root_ply_ = -1;
  bool skip_node_cutoffs_ = false;
  bool fabricated_ = false;
  std::uint64_t last_shadow_nodes_ = 0;
  std::array<bool, search::kMaxPly + 2> reduced_{};
  search::TranspositionTable private_tt_;
  std::unique_ptr<search::Heuristics> saved_heuristics_;
  std::vector<search::StackEntry> stack_;
};

// One position's search: the real result plus what the audit saw.
struct SearchSettings {
  int depth = 0;               // sd (0: not set)
  std::uint64_t nodes = 0;     // sn (0: not set)
  std::size_t hash_mb = 16;
  std::size_t shadow_hash_mb = 2;
  std::uint64_t shadow_node_cap = 5'000'000;
};

struct PositionAudit {
  search::Result result;
  Counts counts{};
  std::vector<Miss> misses;
  std::uint64_t shadow_nodes = 0;
  double time_s = 0;
};

// Searches `fen` from fresh state with ShadowPolicy<V>; `audit` false runs the same search
// with no shadow searches.
template <Variant V>
PositionAudit audit_position(const std::string& fen, const std::string& id, const SearchSettings& s,
                             bool audit = true) {
  Position pos;
  if (auto err = pos.set(fen, true)) throw std::runtime_error("bad FEN '" + fen + "': " + *err);
  search::FreshSearch fresh(s.hash_mb);
  auto policy = std::make_unique<ShadowPolicy<V>>(s.shadow_hash_mb);
  policy->audit = audit;
  policy->shadow_node_cap = s.shadow_node_cap;
  policy->root_id = id;
  policy->root_fen = fen;
  auto t0 = std::chrono::steady_clock::now();
  PositionAudit out;
  out.result = fresh.run(pos, *policy, s.depth, s.nodes);
  out.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out.counts = policy->counts;
  out.misses = std::move(policy->misses);
  out.shadow_nodes = policy->shadow_nodes;
  return out;
}

// The engine's own search (Worker<NoPolicy>, exactly what Searcher::go runs) from fresh state.
search::Result plain_search(const std::string& fen, const SearchSettings& s, double* time_s = nullptr);

// "" when the two results agree in best move, score, PV, node count and every iteration
// (depth, score, nodes, PV); else the first difference, in words.
std::string compare_results(const search::Result& reference, const search::Result& audited);

// Re-searches each miss's audited position with an open window at shadow_depth .. +extra
// (fresh state, the engine's own search, `node_cap` per miss) and sets its verdict.
void classify(std::vector<Miss>& misses, int extra_depths, std::uint64_t node_cap);

std::string path_uci(const std::vector<Move>& path);

// The fabricated-bound signature (LESSONS.md: a bound fabricated to signal a caller that is not
// there): a classified miss whose shadow score lies within 2 of the window edge and whose
// open-window value at the same depth is on the other side. Narrow-window boundary noise shows
// it too, so the gate is on its share among misses at depth >= min_depth (shallow LMP and
// static-null misses are mostly quiescence-horizon noise and dilute it).
struct ArtifactShare {
  std::size_t misses = 0, signature = 0;
  double share() const { return misses ? double(signature) / double(misses) : 0.0; }
};
bool has_artifact_signature(const Miss& m);
ArtifactShare artifact_share(const std::vector<Miss>& misses, int min_depth);
constexpr double kDefaultMaxArtifactShare = 0.3;

}  // namespace stk::harness::shadow
