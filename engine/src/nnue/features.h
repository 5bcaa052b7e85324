// HalfKA feature encoder: 32 king buckets x 11 piece kinds x 64 squares per perspective
// (SPEC-NNUE.md "Features"). Shared by full refresh and the incremental accumulator update.
#pragma once

#include <vector>

#include "nnue/nnue_common.h"
#include "position.h"
#include "types.h"

namespace stk::nnue {

// How perspective c sees the board: every square is xor-ed with `xor_mask` (56 flips ranks for
// black, 7 mirrors files when the own king stands on files e-h), and the own king picks `bucket`.
struct Orientation {
  int xor_mask = 0;
  int bucket = 0;
};

constexpr Orientation orientation(Color perspective, Square own_king) {
  int o = perspective == BLACK ? 56 : 0;
  Square k = Square(own_king ^ o);
  if (file_of(k) >= 4) o ^= 7, k = flip_file(k);  // keep the own king on files a-d
  return {o, rank_of(k) * 4 + file_of(k)};
}

// 0..4 own pawn..queen, 5..10 opponent pawn..king. The own king has no kind (never a feature).
constexpr int piece_kind(Color perspective, Piece pc) {
  return color_of(pc) == perspective ? int(type_of(pc)) : 5 + int(type_of(pc));
}

constexpr int feature_index(const Orientation& o, Color perspective, Piece pc, Square s) {
  return (o.bucket * kNumKinds + piece_kind(perspective, pc)) * 64 + (s ^ o.xor_mask);
}

// Up to 31 features are active per perspective (32 pieces minus the own king).
constexpr int kMaxActive = 32;

// Writes the active features of `perspective` (board order, unsorted); returns their count.
int append_active_features(const Position& pos, Color perspective, int* out);
// Sorted active features (what `stk features` prints).
std::vector<int> active_features(const Position& pos, Color perspective);

// Output bucket: clamp((pieces on board - 1) / 4, 0, 7), kings counted.
inline int output_bucket(const Position& pos) {
  int b = (popcount(pos.pieces()) - 1) / 4;
  return b < 0 ? 0 : b > kNumOutputBuckets - 1 ? kNumOutputBuckets - 1 : b;
}

}  // namespace stk::nnue
