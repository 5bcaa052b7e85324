// What the shadow audit counts: per mechanism x remaining depth, the decisions audited and their
// misses; per control population x depth, the control searches and their hits; the depth check
// of every shadow root; and one record per miss (or control hit) with its context.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "position.h"
#include "search/policy.h"

namespace stk::harness::shadow {

using search::Mechanism;
constexpr int kDepthCells = 64;  // remaining depth 0..63 (deeper ones counted in 63)
inline int depth_cell(int depth) {
  return depth < 0 ? 0 : depth >= kDepthCells ? kDepthCells - 1 : depth;
}

// Control populations: searches the real search did, whose outcome is known, repeated in the
// shadow under the same isolation as the misses. A hit is a shadow result on the other side.
enum class Control {
  ReducedSearch,  // LMR: the decision's own reduced search (> alpha is a hit)
  NullSearch,     // null move: the decision's own null-move search (< beta is a hit)
  SearchedMove,   // LMP, futility, SEE: an unreduced null-window move search at a non-PV node
                  // that failed low, same depth (> alpha is a hit)
  SearchedNode,   // static null: a non-PV node whose move loop failed high, re-searched whole
                  // without node cut-offs at it (< beta is a hit)
};
constexpr int kControlCount = 4;
constexpr const char* control_name(Control c) {
  switch (c) {
    case Control::ReducedSearch: return "reduced_search";
    case Control::NullSearch: return "null_search";
    case Control::SearchedMove: return "searched_move";
    case Control::SearchedNode: return "searched_node";
  }
  return "?";
}
constexpr Control control_of(Mechanism m) {
  switch (m) {
    case Mechanism::Lmr: return Control::ReducedSearch;
    case Mechanism::NullMove: return Control::NullSearch;
    case Mechanism::StaticNull: return Control::SearchedNode;
    default: return Control::SearchedMove;
  }
}
constexpr bool node_level(Mechanism m) {
  return m == Mechanism::NullMove || m == Mechanism::StaticNull;
}

struct Cell {
  std::uint64_t audited = 0;  // decisions whose shadow search completed
  std::uint64_t misses = 0;
  std::uint64_t discarded = 0;         // shadow search hit its node cap or a fabricated-bound path
  std::uint64_t depth_mismatches = 0;  // shadow root entered at another depth than recomputed
};
struct ControlCell {
  std::uint64_t audited = 0;   // control searches completed
  std::uint64_t hits = 0;      // ... that disagreed with the real search's result
  std::uint64_t replayed = 0;  // ... that searched exactly as many nodes as the real search did
  std::uint64_t discarded = 0;
  std::uint64_t depth_mismatches = 0;
};

struct Counts {
  std::array<std::array<Cell, kDepthCells>, search::kMechanismCount> decisions{};
  std::array<std::array<ControlCell, kDepthCells>, kControlCount> controls{};
  // Candidates of the sampled control populations (SearchedMove, SearchedNode) and how many were
  // sampled (every --control-every-th, counted in the order the real search meets them).
  std::array<std::uint64_t, kControlCount> candidates{}, sampled{};

  Cell& at(Mechanism m, int depth) { return decisions[int(m)][depth_cell(depth)]; }
  ControlCell& at(Control c, int depth) { return controls[int(c)][depth_cell(depth)]; }
  void add(const Counts& o);
};

struct Miss {
  Mechanism mechanism = Mechanism::Lmr;
  bool control = false;  // a control hit (the control population of `mechanism`), not a miss
  int ply = 0;
  int depth = 0;         // remaining depth at the deciding node
  int reduction = 0;     // LMR only
  int move_number = 0;   // 0 for node-level decisions
  int shadow_depth = 0;  // depth the shadow root was entered with
  int alpha = 0, beta = 0;
  std::optional<int> real_score;  // reduced score (LMR), cut-off score (null/static null)
  int shadow_score = 0;
  std::uint64_t shadow_nodes = 0;
  bool child_cut_node = false;
  std::string fen;           // the deciding node
  Move move = Move::none();  // none for node-level decisions
  std::string root_id;
  std::string root_fen;
  std::vector<Move> path;  // root to the deciding node (Move::null() for null moves)
  // Filled by classify(): open-window values (the deciding node's view) at shadow_depth + i.
  std::vector<int> open_values;
  std::string verdict;            // "genuine", "noise", "mixed", "unclassified"
  bool refuted_at_depth = false;  // the open-window value at shadow_depth contradicts the miss
};

// A shadow root entered at another depth than the audit recomputed for it.
struct DepthMismatch {
  Mechanism mechanism = Mechanism::Lmr;
  bool control = false;
  int depth = 0;     // remaining depth at the deciding node
  int expected = 0;  // recomputed by the audit
  int entered = 0;   // what the shadow root got (kNotEntered: never entered)
  std::string fen, root_id, why;
};
constexpr int kNotEntered = -1000;

// True when `value` (the deciding node's view) is on the miss side of the audited window.
inline bool on_miss_side(const Miss& m, int value) {
  return node_level(m.mechanism) ? value < m.beta : value > m.alpha;
}

}  // namespace stk::harness::shadow
