// Accumulator stack: one entry per ply. The search calls push(pos.state().dirty) after every
// make_move/make_null and pop() after every unmake; evaluate() brings the top entry up to date
// lazily, walking back to the last computed entry of each perspective and replaying the
// DirtyPiece records, or refreshing from the position when that perspective's king moved on the
// way (per-ply entries, so nested king moves restore correctly on pop). A null move is an explicit
// entry with no changes.
//
// Policy is a compile-time hook for instrumentation and planted-defect tests; the default policy
// costs nothing. Simd picks the kernels (both are exact; tests compare them).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nnue/features.h"
#include "nnue/network.h"
#include "position.h"

namespace stk::nnue {

struct DefaultAccumulatorPolicy {
  // A move of the own king changes every feature of that perspective: refresh it.
  static constexpr bool kRefreshOnKingMove = true;
  // How many DirtyPiece changes are replayed (a capture-promotion has three).
  static constexpr int kMaxDirtyApplied = 3;
  // Feature index used by the incremental path (identity; a test flips a bit here).
  static constexpr int incremental_index(int index) { return index; }
};

template <class Policy = DefaultAccumulatorPolicy, Simd S = kBestSimd>
class BasicAccumulatorStack {
 public:
  struct Entry {
    alignas(64) std::int16_t acc[2][kMaxHidden];
    alignas(32) std::int32_t psqt[2][kNumOutputBuckets];
    bool computed[2] = {false, false};
    bool king_moved[2] = {false, false};  // this entry's move moved that colour's king
    Square ksq[2] = {NO_SQUARE, NO_SQUARE};
    DirtyPiece dirty;
  };
  struct Stats {
    std::uint64_t refreshes = 0;  // perspectives recomputed from the position
    std::uint64_t updates = 0;    // perspectives updated from the previous ply
  };

  BasicAccumulatorStack() { entries_.resize(64); }

  // Starts a new stack at `pos` (the root). The network must outlive the stack's use of it.
  void reset(const Position& pos, const Network& net) {
    net_ = &net;
    size_ = 1;
    Entry& e = entries_[0];
    e.computed[WHITE] = e.computed[BLACK] = false;
    e.king_moved[WHITE] = e.king_moved[BLACK] = false;
    e.ksq[WHITE] = pos.king_square(WHITE);
    e.ksq[BLACK] = pos.king_square(BLACK);
    e.dirty.count = 0;
  }

  // After make_move / make_null: records the move's changes; nothing is computed yet.
  void push(const DirtyPiece& dirty) {
    if (size_ == entries_.size()) entries_.resize(entries_.size() * 2);
    const Entry& prev = entries_[size_ - 1];
    Entry& e = entries_[size_++];
    e.dirty = dirty;
    e.computed[WHITE] = e.computed[BLACK] = false;
    e.king_moved[WHITE] = e.king_moved[BLACK] = false;
    e.ksq[WHITE] = prev.ksq[WHITE];
    e.ksq[BLACK] = prev.ksq[BLACK];
    for (int k = 0; k < dirty.count; ++k)
      if (type_of(dirty.piece[k]) == KING) {
        Color c = color_of(dirty.piece[k]);
        e.king_moved[c] = true;
        e.ksq[c] = dirty.to[k];
      }
  }

  // After unmake_move / unmake_null.
  void pop() { --size_; }

  // Brings both perspectives of the top entry up to date for `pos` (the current position).
  void update(const Position& pos) {
    for (Color c : {WHITE, BLACK}) {
      std::size_t top = size_ - 1, i = top;
      while (!entries_[i].computed[c]) {
        if (i == 0 || (Policy::kRefreshOnKingMove && entries_[i].king_moved[c])) {
          refresh(pos, c, entries_[top]);
          break;
        }
        --i;
      }
      for (std::size_t j = i + 1; j <= top && !entries_[top].computed[c]; ++j)
        apply(entries_[j - 1], entries_[j], c);
    }
  }

  EvalParts evaluate(const Position& pos) {
    update(pos);
    const Entry& e = entries_[size_ - 1];
    Color us = pos.side_to_move(), them = ~us;
    return net_->forward<S>(e.acc[us], e.acc[them], e.psqt[us], e.psqt[them], output_bucket(pos));
  }

  const Entry& top() const { return entries_[size_ - 1]; }
  std::size_t size() const { return size_; }
  const Network& network() const { return *net_; }
  const Stats& stats() const { return stats_; }

 private:
  void refresh(const Position& pos, Color c, Entry& e) {
    int features[kMaxActive];
    int n = append_active_features(pos, c, features);
    net_->transformer().refresh<S>(features, n, e.acc[c], e.psqt[c]);
    e.computed[c] = true;
    ++stats_.refreshes;
  }

  void apply(const Entry& prev, Entry& e, Color c) {
    const Orientation o = orientation(c, e.ksq[c]);
    const DirtyPiece& d = e.dirty;
    int removed[3], added[3], nr = 0, na = 0;
    const int count = d.count < Policy::kMaxDirtyApplied ? d.count : Policy::kMaxDirtyApplied;
    for (int k = 0; k < count; ++k) {
      if (d.piece[k] == make_piece(c, KING)) continue;  // the own king is never a feature
      if (d.from[k] != NO_SQUARE)
        removed[nr++] = Policy::incremental_index(feature_index(o, c, d.piece[k], d.from[k]));
      if (d.to[k] != NO_SQUARE)
        added[na++] = Policy::incremental_index(feature_index(o, c, d.piece[k], d.to[k]));
    }
    net_->transformer().update<S>(prev.acc[c], prev.psqt[c], removed, nr, added, na, e.acc[c],
                                  e.psqt[c]);
    e.computed[c] = true;
    ++stats_.updates;
  }

  const Network* net_ = nullptr;
  std::vector<Entry> entries_;
  std::size_t size_ = 0;
  Stats stats_;
};

using AccumulatorStack = BasicAccumulatorStack<>;

// Reference evaluation: both perspectives recomputed from the position, then forward.
template <Simd S = kBestSimd>
EvalParts evaluate_refresh(const Network& net, const Position& pos) {
  alignas(64) std::int16_t acc[2][kMaxHidden];
  alignas(32) std::int32_t psqt[2][kNumOutputBuckets];
  for (Color c : {WHITE, BLACK}) {
    int features[kMaxActive];
    int n = append_active_features(pos, c, features);
    net.transformer().refresh<S>(features, n, acc[c], psqt[c]);
  }
  Color us = pos.side_to_move(), them = ~us;
  return net.forward<S>(acc[us], acc[them], psqt[us], psqt[them], output_bucket(pos));
}

// Debug invariant (like Position::is_ok): the top entry of the stack, after update(pos) or
// evaluate(pos), equals a full scalar recompute from `pos` bit for bit, both perspectives and
// PSQT. An entry not yet computed counts as a mismatch (call it after evaluating). On a mismatch
// *why names the perspective and the first differing lane.
template <class P, Simd S>
bool accumulator_matches_recompute(const BasicAccumulatorStack<P, S>& stack, const Position& pos,
                                   std::string* why = nullptr) {
  const auto& e = stack.top();
  const Network& net = stack.network();
  alignas(64) std::int16_t acc[kMaxHidden];
  alignas(32) std::int32_t psqt[kNumOutputBuckets];
  for (Color c : {WHITE, BLACK}) {
    const char* name = c == WHITE ? "white" : "black";
    if (!e.computed[c]) {
      if (why) *why = std::string(name) + " accumulator not computed (evaluate before auditing)";
      return false;
    }
    int features[kMaxActive];
    int n = append_active_features(pos, c, features);
    net.transformer().refresh<Simd::Scalar>(features, n, acc, psqt);
    for (int j = 0; j < net.hidden(); ++j)
      if (acc[j] != e.acc[c][j]) {
        if (why)
          *why = std::string(name) + " accumulator lane " + std::to_string(j) + ": incremental " +
                 std::to_string(e.acc[c][j]) + ", recompute " + std::to_string(acc[j]);
        return false;
      }
    for (int b = 0; b < kNumOutputBuckets; ++b)
      if (psqt[b] != e.psqt[c][b]) {
        if (why)
          *why = std::string(name) + " PSQT bucket " + std::to_string(b) + ": incremental " +
                 std::to_string(e.psqt[c][b]) + ", recompute " + std::to_string(psqt[b]);
        return false;
      }
  }
  return true;
}

}  // namespace stk::nnue
