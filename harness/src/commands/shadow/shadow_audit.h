// Shadow-search silent-miss audit: a search policy that, at every pruning or reduction decision
// of a real search, searches what the decision skipped and records when the skipped search
// would have changed the node's outcome (a "miss" the real search never saw).
//   LMR       a reduced null-window search failed low: the same move, same window, unreduced
//             depth; a miss is a result > alpha (a fail high of the null window).
//   LMP, futility, SEE: the pruned move at the depth it would have had, null window at alpha;
//             a miss is a result > alpha.
//   null move, static null move: the node searched normally, without those cut-offs at it;
//             a miss is a result < beta.
// Beside every miss search it runs a control (shadow_counts.h, Control): a search whose answer
// the real search already knows, repeated under the same isolation. A control hit is re-search
// noise; only the excess of the miss rate over the control rate is signal.
//   LMR       the decision's own reduced search (same move, window, reduced depth, cut node)
//   null move the decision's own null-move search (depth - R, window -beta, -beta+1)
//   LMP, futility, SEE: unreduced null-window move searches at non-PV nodes that failed low,
//             at the same depth (sampled: every `control_every`-th)
//   static null: non-PV nodes whose move loop failed high, re-searched whole without node
//             cut-offs at the root (sampled likewise; depth <= kNodeControlMaxDepth)
// Every shadow root's entered depth is checked against a depth the audit recomputes itself
// (unreduced: depth - 1 + check extension; reduced: that - reduction; pruned: depth - 1 + check
// extension; node level: the node's depth; null search: the engine's depth - R, R in range).
// Isolation (the shadow search never changes the real one; what it starts from is the level,
// shadow_isolation.h): see worker_impl.h "Shadow searches" for the engine side; here: the
// table (private, or the real one read-only under a slot overlay), history and countermoves
// (shadow writes undone from a journal), a private copy of the search stack, node count / stop
// state / seldepth / budget saved and restored, own node cap.
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
#include "commands/shadow/shadow_counts.h"
#include "commands/shadow/shadow_isolation.h"

namespace stk::harness::shadow {

// Compile-time variants: the audit proper is Variant{}; the others are planted defects for the
// audit's own tests (each must be caught by the invariant, the artifact, or the depth gates).
struct Variant {
  bool private_table = true;          // false: the shadow search writes/reads the real table
  bool restore_heuristics = true;     // false: shadow history/countermove updates leak
  bool lmr_at_reduced_depth = false;  // the LMR miss search runs at the reduced depth
  int pruned_depth_offset = 0;        // added to a pruned move's shadow depth (-1: one ply short)
};

// The static null move's margin rule acts at depth <= 5 (the audit runs with the fail-high
// predictor off; with it on the rule would reach depth 7).
constexpr int kNodeControlMaxDepth = 5;

struct AuditSettings {
  Isolation isolation = kExact;
  bool controls = true;
  std::uint64_t control_every = 1;  // SearchedMove / SearchedNode: every N-th candidate
  std::uint64_t shadow_node_cap = 5'000'000;
  std::size_t max_depth_mismatches = 20;  // recorded in full per position (all are counted)
};

// Both interfaces: the decision hooks of the observer (node and fail-high collection hooks empty)
// and the whole shadow control.
template <Variant V>
struct ShadowPolicy : private search::NoObserver {
  using NoObserver::on_node, NoObserver::kCollectFh, NoObserver::fh_begin_node,
      NoObserver::fh_record;
  static constexpr bool kEnabled = true;
  static constexpr bool kPredictor = false;
  using E = search::StackEntry;
  using JS = search::JudgedSearch;

  // Settings.
  bool audit = true;  // false: the same search with no shadow searches (invariant reference)
  AuditSettings settings;
  std::string root_id, root_fen;
  // Results.
  Counts counts{};
  std::vector<Miss> misses, control_hits;
  std::vector<DepthMismatch> depth_mismatches;
  std::uint64_t shadow_nodes = 0, control_nodes = 0;
  std::size_t journal_peak = 0;  // largest undo journal (entries) kept while marks were open

  explicit ShadowPolicy(std::size_t shadow_hash_mb = 2) : stack_(search::kMaxPly + 10) {
    private_tt_.resize(shadow_hash_mb);
    for (int i = 0; i < int(stack_.size()); ++i) stack_[i].ply = i - 4;
  }

  // --- guards consulted by the search (worker_impl.h) ---
  bool in_shadow() const { return in_shadow_; }
  bool shadow_root(int ply) const { return in_shadow_ && ply == shadow_root_ply_; }
  bool shadow_skip_node_cutoffs(int ply) const { return shadow_root(ply) && skip_node_cutoffs_; }
  bool shadow_skip_iir(int ply) const { return shadow_root(ply) && !settings.isolation.iir; }
  bool shadow_skip_mate_distance() const { return in_shadow_ && !settings.isolation.mate; }
  template <class T>
  AuditTable table(T& real) {
    using M = AuditTable::Mode;
    if (!in_shadow_) {
      const bool journaled = audit && settings.isolation.table;
      return {journaled ? M::Journaled : M::Real,
              real,
              nullptr,
              nullptr,
              &journal_.table(),
              &marks_open_};
    }
    if constexpr (!V.private_table) return {M::Real, real, nullptr, nullptr, nullptr, nullptr};
    if (settings.isolation.table) return {M::Overlay, real, nullptr, &overlay_, nullptr, nullptr};
    return {M::Private, real, &private_tt_, nullptr, nullptr, nullptr};
  }
  void shadow_fabricated() { fabricated_ = true; }

  // --- journals and marks ---
  void on_search_entry(E* ss, int depth) {
    if (in_shadow_ && entered_depth_ == kNotEntered && ss->ply == shadow_root_ply_)
      entered_depth_ = depth;
  }
  void on_killers_reset(E* entry) {
    if (in_shadow_ || !audit) return;
    killer_extent_ = std::max(killer_extent_, index_of(entry) + 1);
    if (journal_heuristics()) journal_.killers(index_of(entry), entry->killers);
  }
  template <class W, class P, class M>
  void on_quiet_stats(W& w, const P& pos, E* ss, M best, const M* quiets, int quiet_count) {
    if (!audit) return;
    if (in_shadow_) {
      if constexpr (!V.restore_heuristics) return;  // planted: the shadow's updates stay
    } else {
      if (!journal_heuristics()) return;
      journal_.killers(index_of(ss), ss->killers);
    }
    search::Heuristics& h = w.heuristics();
    const Color us = pos.side_to_move();
    journal_.history(&h.history[us][best.from()][best.to()]);
    for (int i = 0; i < quiet_count; ++i)
      if (quiets[i] != best) journal_.history(&h.history[us][quiets[i].from()][quiets[i].to()]);
    if ((ss - 1)->moved_piece != NO_PIECE)
      journal_.countermove(&h.countermove[(ss - 1)->moved_piece][(ss - 1)->move.to()]);
  }
  template <class W>
  void on_search_begin(W& w, JS kind, E* ss, int depth) {
    if (in_shadow_ || !audit || (!settings.controls && (kind == JS::FullMove || kind == JS::Node)))
      return;
    drop_stale_marks(ss->ply, kind);
    if (kind == JS::FullMove || kind == JS::Node) {
      if (kind == JS::Node && depth > kNodeControlMaxDepth) return;
      const Control c = kind == JS::Node ? Control::SearchedNode : Control::SearchedMove;
      if (counts.candidates[int(c)]++ % settings.control_every != 0) return;
      ++counts.sampled[int(c)];
    }
    marks_.push_back(journal_.mark(ss->ply, kind, w.nodes()));
    marks_open_ = true;
  }
  template <class W>
  void on_search_end(W&, JS kind, E* ss) {
    if (in_shadow_ || !audit) return;
    while (!marks_.empty() && marks_.back().ply > ss->ply) marks_.pop_back();
    if (!marks_.empty() && marks_.back().ply == ss->ply && marks_.back().kind == kind)
      marks_.pop_back();
    if (marks_.empty()) {
      journal_peak = std::max(journal_peak, journal_.size());
      journal_.clear();
      marks_open_ = false;
    }
  }

  // --- decision hooks ---
  template <class W, class S, class P, class M>
  void on_reduced_fail_low(W& w, S access, P& pos, E* ss, M m, const search::DecisionContext& ctx,
                           int reduction, int reduced_depth, int full_depth, int score,
                           bool reduced_cut, bool child_cut) {
    if (in_shadow_ || !audit) return;
    const Mark* mark = open_mark(ctx.ply, JS::ReducedMove);
    // Recomputed here: the move is made, so "gives check" is "the side to move is in check".
    const int unreduced = ctx.depth - 1 + (pos.in_check() && ctx.ply < 2 * w.root_depth() ? 1 : 0);
    const char* why = full_depth != reduced_depth + reduction
                          ? "engine: full depth != reduced + reduction"
                          : nullptr;
    const int miss_depth = V.lmr_at_reduced_depth ? reduced_depth : full_depth;
    const Job miss{Mechanism::Lmr, false, ctx.depth, ctx.ply + 1, false, unreduced, mark, why};
    auto v = run_shadow(w, access, pos, ss, miss, [&](E* pss) {
      return -w.template search<false>(pos, pss + 1, -ctx.alpha - 1, -ctx.alpha, miss_depth,
                                       child_cut);
    });
    if (record(Mechanism::Lmr, false, ctx, v)) {
      pos.unmake_move();  // the deciding node's FEN (the move is made at this hook)
      Miss& x = add_miss(misses, Mechanism::Lmr, false, pos, ss, ctx, *v, child_cut);
      pos.make_move(m);
      x.move = m, x.reduction = reduction, x.real_score = score;
    }
    if (!settings.controls) return;
    const Job control{Mechanism::Lmr,        true, ctx.depth, ctx.ply + 1, false,
                      unreduced - reduction, mark, nullptr};
    auto c = run_shadow(w, access, pos, ss, control, [&](E* pss) {
      return -w.template search<false>(pos, pss + 1, -ctx.alpha - 1, -ctx.alpha, reduced_depth,
                                       reduced_cut);
    });
    if (record(Mechanism::Lmr, true, ctx, c, judged_nodes(w, mark))) {
      pos.unmake_move();
      Miss& x = add_miss(control_hits, Mechanism::Lmr, true, pos, ss, ctx, *c, reduced_cut);
      pos.make_move(m);
      x.move = m, x.reduction = reduction, x.real_score = score;
    }
  }

  template <class W, class S, class P, class M>
  void on_pruned(W& w, S access, Mechanism mech, P& pos, E* ss, M m,
                 const search::DecisionContext& ctx, int would_be_depth, bool child_cut) {
    if (in_shadow_ || !audit) return;
    const int expected = ctx.depth - 1 +
                         (pos.gives_check(m) && ctx.ply < 2 * w.root_depth() ? 1 : 0);
    const int depth = would_be_depth + V.pruned_depth_offset;
    const Job miss{mech, false, ctx.depth, ctx.ply + 1, false, expected, nullptr, nullptr};
    auto v = run_shadow(w, access, pos, ss, miss, [&](E* pss) {
      w.do_move(pos, pss, m);
      (pss + 1)->ply = ctx.ply + 1;
      int s = -w.template search<false>(pos, pss + 1, -ctx.alpha - 1, -ctx.alpha, depth, child_cut);
      w.undo_move(pos);
      return s;
    });
    if (!record(mech, false, ctx, v)) return;
    Miss& x = add_miss(misses, mech, false, pos, ss, ctx, *v, child_cut);
    x.move = m;
  }

  template <class W, class S, class P>
  void on_node_cutoff(W& w, S access, Mechanism mech, P& pos, E* ss,
                      const search::DecisionContext& ctx, int score, bool cut_node,
                      int null_depth) {
    if (in_shadow_ || !audit) return;
    const Mark* mark = mech == Mechanism::NullMove ? open_mark(ctx.ply, JS::NullMove) : nullptr;
    const Job miss{mech, false, ctx.depth, ctx.ply, true, ctx.depth, mark, nullptr};
    auto v = run_shadow(w, access, pos, ss, miss, [&](E* pss) {
      return w.template search<false>(pos, pss, ctx.alpha, ctx.beta, ctx.depth, cut_node);
    });
    if (record(mech, false, ctx, v))
      add_miss(misses, mech, false, pos, ss, ctx, *v, cut_node).real_score = score;
    if (mech != Mechanism::NullMove || !settings.controls) return;
    // The engine's null depth is depth - R with R = 3 + depth/3 + min((eval - beta)/200, 3).
    const int r = ctx.depth - null_depth;
    const char* why = r < 3 || r > 6 + ctx.depth / 3 ? "engine: null-move reduction out of range"
                                                     : nullptr;
    const Job control{mech, true, ctx.depth, ctx.ply + 1, false, null_depth, mark, why};
    auto c = run_shadow(w, access, pos, ss, control, [&](E* pss) {
      w.do_null(pos, pss);
      (pss + 1)->ply = ctx.ply + 1;
      int s = -w.template search<false>(pos, pss + 1, -ctx.beta, -ctx.beta + 1, null_depth,
                                        !cut_node);
      w.undo_null(pos);
      return s;
    });
    if (record(mech, true, ctx, c, judged_nodes(w, mark)))
      add_miss(control_hits, mech, true, pos, ss, ctx, *c, !cut_node).real_score = score;
  }

  // --- controls of the pruning mechanisms ---
  template <class W, class S, class P, class M>
  void on_full_fail_low(W& w, S access, P& pos, E* ss, M m, const search::DecisionContext& ctx,
                        int depth, int score, bool child_cut) {
    if (in_shadow_ || !audit) return;
    const Mark* mark = open_mark(ctx.ply, JS::FullMove);
    if (!mark) return;  // not sampled
    const int expected = ctx.depth - 1 + (pos.in_check() && ctx.ply < 2 * w.root_depth() ? 1 : 0);
    const Job control{Mechanism::Lmp, true, ctx.depth, ctx.ply + 1, false, expected, mark, nullptr};
    auto c = run_shadow(w, access, pos, ss, control, [&](E* pss) {
      return -w.template search<false>(pos, pss + 1, -ctx.alpha - 1, -ctx.alpha, depth, child_cut);
    });
    if (record(Mechanism::Lmp, true, ctx, c, judged_nodes(w, mark))) {
      pos.unmake_move();
      Miss& x = add_miss(control_hits, Mechanism::Lmp, true, pos, ss, ctx, *c, child_cut);
      pos.make_move(m);
      x.move = m, x.real_score = score;
    }
  }

  template <class W, class S, class P>
  void on_node_fail_high(W& w, S access, P& pos, E* ss, const search::DecisionContext& ctx,
                         int score, bool cut_node) {
    if (in_shadow_ || !audit) return;
    const Mark* mark = open_mark(ctx.ply, JS::Node);
    if (!mark) return;  // not sampled, or deeper than the static null move acts
    const Job control{
        Mechanism::StaticNull, true, ctx.depth, ctx.ply, true, ctx.depth, mark, nullptr};
    auto c = run_shadow(w, access, pos, ss, control, [&](E* pss) {
      return w.template search<false>(pos, pss, ctx.alpha, ctx.beta, ctx.depth, cut_node);
    });
    // The shadow counts the node itself, which the real search counted before the mark.
    if (record(Mechanism::StaticNull, true, ctx, c, judged_nodes(w, mark) + 1))
      add_miss(control_hits, Mechanism::StaticNull, true, pos, ss, ctx, *c, cut_node).real_score =
          score;
  }

 private:
  // One shadow search: what it audits, where its root is, the depth the audit expects it to be
  // entered with, and the mark whose state it starts from (nullptr: the present state).
  struct Job {
    Mechanism mech;
    bool control;
    int depth;  // remaining depth at the deciding node (the cell)
    int root_ply;
    bool skip_node_cutoffs;
    int expected_depth;
    const Mark* mark;
    const char* engine_mismatch;  // an engine-side inconsistency the hook found, or nullptr
  };

  bool journal_heuristics() const {
    return !marks_.empty() && (settings.isolation.heuristics || settings.isolation.stack);
  }
  int index_of(const E* e) const { return e->ply + 4; }

  // A judged search at `ply` begins: marks left open deeper (a stopped search unwinds without
  // closing them) are stale, and so is any earlier mark at the same ply except the node's own.
  void drop_stale_marks(int ply, JS kind) {
    while (!marks_.empty() &&
           (marks_.back().ply > ply ||
            (marks_.back().ply == ply && (kind == JS::Node || marks_.back().kind != JS::Node))))
      marks_.pop_back();
    marks_open_ = !marks_.empty();
  }
  const Mark* open_mark(int ply, JS kind) const {
    for (auto it = marks_.rbegin(); it != marks_.rend() && it->ply >= ply; ++it)
      if (it->ply == ply && it->kind == kind) return &*it;
    return nullptr;
  }

  // Nodes of the judged search since `mark` opened (a null mark: none known).
  template <class W>
  static std::uint64_t judged_nodes(const W& w, const Mark* mark) {
    return mark ? w.nodes() - mark->nodes : 0;
  }

  // Counts a completed (or discarded) shadow search; true when it is a miss / control hit.
  // `real_nodes`: a control's real search size, to count the controls that replayed it exactly.
  bool record(Mechanism mech, bool control, const search::DecisionContext& ctx,
              const std::optional<int>& v, std::uint64_t real_nodes = 0) {
    const bool hit = v && (node_level(mech) ? *v < ctx.beta : *v > ctx.alpha);
    if (control) {
      ControlCell& c = counts.at(control_of(mech), ctx.depth);
      if (!v) return ++c.discarded, false;
      ++c.audited;
      c.hits += hit;
      c.replayed += last_shadow_nodes_ == real_nodes;
    } else {
      Cell& c = counts.at(mech, ctx.depth);
      if (!v) return ++c.discarded, false;
      ++c.audited;
      c.misses += hit;
    }
    return hit;
  }

  template <class P>
  Miss& add_miss(std::vector<Miss>& into, Mechanism mech, bool control, P& pos, E* ss,
                 const search::DecisionContext& ctx, int v, bool child_cut) {
    Miss x;
    x.mechanism = mech;
    x.control = control;
    x.ply = ctx.ply;
    x.depth = ctx.depth;
    x.move_number = ctx.move_count;
    x.shadow_depth = last_entered_depth_;
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
    into.push_back(std::move(x));
    return into.back();
  }

  template <class P>
  void check_depth(const Job& job, const P& pos) {
    const int depth = job.depth;
    const char* why = job.engine_mismatch                    ? job.engine_mismatch
                      : entered_depth_ == kNotEntered        ? "shadow root never entered"
                      : entered_depth_ != job.expected_depth ? "entered depth differs"
                                                             : nullptr;
    if (!why) return;
    if (job.control) ++counts.at(control_of(job.mech), depth).depth_mismatches;
    else ++counts.at(job.mech, depth).depth_mismatches;
    if (depth_mismatches.size() < settings.max_depth_mismatches)
      depth_mismatches.push_back({job.mech, job.control, depth, job.expected_depth, entered_depth_,
                                  pos.fen(), root_id, why});
  }

  // Runs `body(private_ss)` as an isolated shadow search rooted at `job.root_ply`; nullopt when
  // it was stopped (node cap, user stop) or reached a fabricated-bound path.
  template <class W, class S, class P, class Body>
  std::optional<int> run_shadow(W& w, S& access, const P& pos, E* ss, const Job& job, Body&& body) {
    const std::uint64_t saved_nodes = access.nodes;
    const bool saved_stopped = access.stopped;
    const int saved_seldepth = access.seldepth;
    const search::Budget saved_budget = access.budget;
    access.nodes = 0;
    access.stopped = false;
    access.seldepth = 0;
    access.budget.node_limit = settings.shadow_node_cap;
    access.budget.hard_s = access.budget.soft_s = 0;
    const Isolation& level = settings.isolation;

    // Private stack: the ancestors (history lookups, "improving", the null-move rule) and the
    // deciding node's child entry (its killers) are copied; deeper entries start fresh, except
    // their killers with `stack` (a quiescence node reads killers its parent did not reset).
    const int ply = ss->ply;
    E* real_base = ss - ply - 4;
    const int copied = ply + 4 + 2;
    const int deep = level.stack ? std::max(copied, killer_extent_) : copied;
    for (int i = copied; i < std::max(dirty_extent_, deep); ++i)
      stack_[i] = E{}, stack_[i].ply = i - 4;
    std::copy(real_base, real_base + copied, stack_.begin());
    for (int i = copied; i < deep; ++i) std::copy_n(real_base[i].killers, 2, stack_[i].killers);
    E* pss = stack_.data() + 4 + ply;

    // Move-ordering memory and the table as they were at the mark.
    const Mark shadow_start = journal_.now();
    const bool rewind = job.mark && level.heuristics;
    if (job.mark && (level.heuristics || level.stack))
      journal_.rewind_killers(*job.mark, stack_.data(), level.heuristics ? 0 : copied,
                              level.stack ? deep : copied);
    if (rewind) journal_.rewind_heuristics(*job.mark);
    if (level.table) {
      overlay_.clear();
      if (job.mark) journal_.table_before(*job.mark, overlay_);
    } else if constexpr (V.private_table) {
      // Cleared once per audited position (a 1-2 MB clear per shadow search cost 90% of the
      // audit's time), aged per shadow search.
      private_tt_.new_search();
    }
    in_shadow_ = true;
    shadow_root_ply_ = job.root_ply;
    skip_node_cutoffs_ = job.skip_node_cutoffs;
    fabricated_ = false;
    entered_depth_ = kNotEntered;

    const int v = body(pss);

    const bool ok = !access.stopped && !fabricated_;
    last_shadow_nodes_ = access.nodes;
    last_entered_depth_ = entered_depth_;
    shadow_nodes += access.nodes;
    if (job.control) control_nodes += access.nodes;
    dirty_extent_ = std::min(int(stack_.size()), std::max(deep, access.seldepth + 4 + 2));
    in_shadow_ = false;
    shadow_root_ply_ = -1;
    journal_.undo_since(shadow_start);
    if (rewind) journal_.replay_heuristics();
    access.nodes = saved_nodes;
    access.stopped = saved_stopped;
    access.seldepth = saved_seldepth;
    access.budget = saved_budget;
    check_depth(job, pos);
    if (!ok) return std::nullopt;
    return v;
  }

  bool in_shadow_ = false;
  int shadow_root_ply_ = -1;
  bool skip_node_cutoffs_ = false;
  bool fabricated_ = false;
  int entered_depth_ = kNotEntered, last_entered_depth_ = kNotEntered;
  std::uint64_t last_shadow_nodes_ = 0;
  int killer_extent_ = 0;  // stack entries whose killers the real search has written
  int dirty_extent_ = 0;   // private stack entries a shadow search may have written
  std::vector<Mark> marks_;
  bool marks_open_ = false;  // !marks_.empty(), where AuditTable can see it
  Journal journal_;
  SlotOverlay overlay_;
  search::TranspositionTable private_tt_;
  std::vector<E> stack_;
};

// One position's search: the real result plus what the audit saw.
struct SearchSettings {
  int depth = 0;            // sd (0: not set)
  std::uint64_t nodes = 0;  // sn (0: not set)
  std::size_t hash_mb = 16;
  std::size_t shadow_hash_mb = 2;
  AuditSettings audit;
};

struct PositionAudit {
  search::Result result;
  Counts counts{};
  std::vector<Miss> misses, control_hits;
  std::vector<DepthMismatch> depth_mismatches;
  std::uint64_t shadow_nodes = 0, control_nodes = 0;
  std::size_t journal_peak = 0;
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
  policy->settings = s.audit;
  policy->root_id = id;
  policy->root_fen = fen;
  auto t0 = std::chrono::steady_clock::now();
  PositionAudit out;
  out.result = fresh.run(pos, *policy, s.depth, s.nodes);
  out.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out.counts = policy->counts;
  out.misses = std::move(policy->misses);
  out.control_hits = std::move(policy->control_hits);
  out.depth_mismatches = std::move(policy->depth_mismatches);
  out.shadow_nodes = policy->shadow_nodes;
  out.control_nodes = policy->control_nodes;
  out.journal_peak = policy->journal_peak;
  return out;
}

// The engine's own search (Worker<NoPolicy>, exactly what Searcher::go runs) from fresh state.
search::Result plain_search(const std::string& fen, const SearchSettings& s,
                            double* time_s = nullptr);

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
