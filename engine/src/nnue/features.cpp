#include "nnue/features.h"

#include <algorithm>

namespace stk::nnue {

int append_active_features(const Position& pos, Color perspective, int* out) {
  Square ksq = pos.king_square(perspective);
  Orientation o = orientation(perspective, ksq);
  int n = 0;
  for (Bitboard b = pos.pieces() & ~square_bb(ksq); b;) {
    Square s = pop_lsb(b);
    out[n++] = feature_index(o, perspective, pos.piece_on(s), s);
  }
  return n;
}

std::vector<int> active_features(const Position& pos, Color perspective) {
  int buf[kMaxActive];
  int n = append_active_features(pos, perspective, buf);
  std::vector<int> v(buf, buf + n);
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace stk::nnue
