// Accumulator defects planted on purpose, to show that each check fails when it should
// ("a gate is only trusted after it has been seen to fail"). Compile-time policies: the engine's
// default policy stays free of runtime flags.
#pragma once

#include "nnue/accumulator.h"

namespace stk::harness {

// Forgets to refresh a perspective after its own king moved.
struct PlantNoKingRefresh : nnue::DefaultAccumulatorPolicy {
  static constexpr bool kRefreshOnKingMove = false;
};
// Flips one bit (the square's file bit 0) of every index in the incremental path.
struct PlantIndexBitFlip : nnue::DefaultAccumulatorPolicy {
  static constexpr int incremental_index(int index) { return index ^ 1; }
};
// Replays only two DirtyPiece changes: a capture-promotion loses its promoted piece.
struct PlantTwoDirtyOnly : nnue::DefaultAccumulatorPolicy {
  static constexpr int kMaxDirtyApplied = 2;
};

}  // namespace stk::harness

namespace stk::harness {

// Evaluators with a planted defect, for the SIMD and mirror checks.
// Pairwise product without the lower clamp (negative lanes leak into the inputs).
nnue::EvalParts eval_planted_no_low_clamp(const nnue::Network& net, const Position& pos);
// Side-relative mistake: white's point of view instead of the side to move's.
nnue::EvalParts eval_planted_white_relative(const nnue::Network& net, const Position& pos);
// Encoder that never mirrors files (a king on e-h is not moved to a-d).
nnue::EvalParts eval_planted_no_file_mirror(const nnue::Network& net, const Position& pos);

}  // namespace stk::harness
