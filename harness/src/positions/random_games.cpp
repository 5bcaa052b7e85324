#include "positions/random_games.h"

#include <fmt/format.h>

namespace stk::harness {

void WalkCoverage::add(const WalkCoverage& o) {
  steps += o.steps, moves += o.moves, unmakes += o.unmakes, null_moves += o.null_moves;
  captures += o.captures, castles_short += o.castles_short, castles_long += o.castles_long;
  en_passant += o.en_passant, promotions += o.promotions, under_promotions += o.under_promotions;
  capture_promotions += o.capture_promotions, king_moves += o.king_moves;
  king_crossings += o.king_crossings, captures_near_king += o.captures_near_king;
  max_depth = std::max(max_depth, o.max_depth);
}

std::vector<std::pair<std::string, std::string>> WalkCoverage::facts() const {
  auto s = [](auto v) { return std::to_string(v); };
  return {{"steps", s(steps)},
          {"moves", s(moves)},
          {"unmakes", s(unmakes)},
          {"null_moves", s(null_moves)},
          {"captures", s(captures)},
          {"castles_short", s(castles_short)},
          {"castles_long", s(castles_long)},
          {"en_passant", s(en_passant)},
          {"promotions", s(promotions)},
          {"under_promotions", s(under_promotions)},
          {"capture_promotions", s(capture_promotions)},
          {"king_moves", s(king_moves)},
          {"king_crossings_d_e", s(king_crossings)},
          {"captures_near_king", s(captures_near_king)},
          {"max_depth", s(max_depth)}};
}

std::string WalkCoverage::missing() const {
  std::string out;
  for (auto& [k, v] : facts())
    if (v == "0") out += (out.empty() ? "" : ", ") + k;
  return out;
}

const std::vector<std::string>& walk_start_fens() {
  static const std::vector<std::string> fens = {
      Position::kStartFen,
      // castling both ways for both sides, pins, en passant after b/g pushes
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
      "r3k2r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3K2R b KQkq - 0 8",
      // en passant available now
      "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
      "8/8/8/2k5/3Pp3/8/8/4K2Q b - d3 0 1",
      // promotions, capture-promotions and under-promotions at hand
      "1n2k3/P6P/8/8/8/8/p6p/4K1N1 w - - 0 1",
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
      "n1r3k1/1P1P4/8/8/8/8/1p1p4/N1R3K1 b - - 0 1",
      // kings next to the d/e boundary, pieces around them
      "8/3k4/2p1p3/3n4/3N4/2P1P3/4K3/8 w - - 0 1",
      "3qk3/3pp3/8/8/8/8/3PP3/3QK3 w - - 0 1",
      "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
  };
  return fens;
}

int stress_category(const Position& pos, Move m) {
  switch (m.kind()) {
    case CASTLING: return 0;
    case EN_PASSANT: return 1;
    case PROMOTION: return 2;
    default: break;
  }
  if (type_of(pos.moved_piece(m)) == KING) return 3;
  if (!pos.is_capture(m)) return -1;
  Bitboard near = king_attacks(pos.king_square(WHITE)) | king_attacks(pos.king_square(BLACK));
  return (near & square_bb(m.to())) ? 4 : -1;
}

void classify_move(const Position& pos, Move m, WalkCoverage& cov) {
  Piece pc = pos.moved_piece(m);
  bool capture = pos.is_capture(m);
  cov.captures += capture;
  if (m.kind() == CASTLING) (m.to() > m.from() ? cov.castles_short : cov.castles_long)++;
  if (m.kind() == EN_PASSANT) ++cov.en_passant;
  if (m.kind() == PROMOTION) {
    ++cov.promotions;
    cov.under_promotions += m.promotion() != QUEEN;
    cov.capture_promotions += capture;
  }
  if (type_of(pc) == KING) {
    ++cov.king_moves;
    cov.king_crossings += (file_of(m.from()) < 4) != (file_of(m.to()) < 4);
  }
  Bitboard near = king_attacks(pos.king_square(WHITE)) | king_attacks(pos.king_square(BLACK));
  if (capture && (type_of(pc) == KING || (near & square_bb(m.to())))) ++cov.captures_near_king;
}

std::vector<std::string> sample_positions(std::uint64_t seed, int count) {
  std::vector<std::string> out;
  SplitMix rng(seed);
  WalkOptions opt;
  opt.plies = 120;
  WalkCoverage cov;
  const auto& starts = walk_start_fens();
  for (std::size_t g = 0; int(out.size()) < count; ++g) {
    random_walk(
        starts[g % starts.size()], rng, opt,
        [&](WalkOp op, const Position& pos) {
          if (op == WalkOp::Make && int(out.size()) < count && rng.chance(25))
            out.push_back(pos.fen());
        },
        cov);
  }
  return out;
}

}  // namespace stk::harness
