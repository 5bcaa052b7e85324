#include "commands/accumulator/planted_defects.h"

namespace stk::harness {

namespace {

// The engine's forward pass written out layer by layer, with `transform` swappable.
template <class Transform>
nnue::EvalParts forward_with(const nnue::Network& net, const Position& pos,
                             const std::int16_t (&acc)[2][nnue::kMaxHidden],
                             const std::int32_t (&psqt)[2][nnue::kNumOutputBuckets],
                             Transform transform) {
  using namespace nnue;
  Color us = pos.side_to_move(), them = ~us;
  int b = output_bucket(pos);
  alignas(64) std::uint8_t input[kMaxHidden];
  alignas(64) std::int32_t s1[kL1Out], s2[kL2Out], s3[4];
  alignas(64) std::uint8_t h1[32] = {}, h2[kL2Out];
  transform(acc[us], input);
  transform(acc[them], input + net.hidden() / 2);
  net.bucket(b).l1.propagate<kBestSimd>(input, s1);
  clipped_relu(s1, kL1Out, h1);
  net.bucket(b).l2.propagate<kBestSimd>(h1, s2);
  clipped_relu(s2, kL2Out, h2);
  net.bucket(b).out.propagate<kBestSimd>(h2, s3);
  EvalParts e;
  e.bucket = b;
  e.positional = s3[0] >> 4;
  e.psqt = int((std::int64_t(psqt[us][b]) - std::int64_t(psqt[them][b])) >> 4);
  e.eval = e.positional + e.psqt;
  return e;
}

}  // namespace

nnue::EvalParts eval_planted_no_low_clamp(const nnue::Network& net, const Position& pos) {
  using namespace nnue;
  alignas(64) std::int16_t acc[2][kMaxHidden];
  alignas(32) std::int32_t psqt[2][kNumOutputBuckets];
  for (Color c : {WHITE, BLACK}) {
    int f[kMaxActive];
    int n = append_active_features(pos, c, f);
    net.transformer().refresh<kBestSimd>(f, n, acc[c], psqt[c]);
  }
  const int half = net.hidden() / 2;
  return forward_with(net, pos, acc, psqt, [half](const std::int16_t* a, std::uint8_t* out) {
    for (int j = 0; j < half; ++j) {
      int x = a[j] > 127 ? 127 : a[j], y = a[j + half] > 127 ? 127 : a[j + half];
      out[j] = std::uint8_t((x * y) >> 7);  // the defect: no clamp at 0
    }
  });
}

nnue::EvalParts eval_planted_white_relative(const nnue::Network& net, const Position& pos) {
  nnue::EvalParts e = nnue::evaluate_refresh<nnue::kBestSimd>(net, pos);
  if (pos.side_to_move() == BLACK) e.eval = -e.eval, e.psqt = -e.psqt, e.positional = -e.positional;
  return e;
}

nnue::EvalParts eval_planted_no_file_mirror(const nnue::Network& net, const Position& pos) {
  using namespace nnue;
  alignas(64) std::int16_t acc[2][kMaxHidden];
  alignas(32) std::int32_t psqt[2][kNumOutputBuckets];
  for (Color c : {WHITE, BLACK}) {
    Square ksq = pos.king_square(c);
    int o = c == BLACK ? 56 : 0;
    Square k = Square(ksq ^ o);
    // The defect: no "if file(k) >= 4 then mirror"; the bucket index wraps into 0..31.
    Orientation orient{o, (rank_of(k) * 4 + file_of(k) % 4)};
    int f[kMaxActive], n = 0;
    for (Bitboard b = pos.pieces() & ~square_bb(ksq); b;) {
      Square s = pop_lsb(b);
      f[n++] = feature_index(orient, c, pos.piece_on(s), s);
    }
    net.transformer().refresh<kBestSimd>(f, n, acc[c], psqt[c]);
  }
  const int hidden = net.hidden();
  return forward_with(net, pos, acc, psqt, [hidden](const std::int16_t* a, std::uint8_t* out) {
    pairwise_product<kBestSimd>(a, hidden, out);
  });
}

}  // namespace stk::harness
