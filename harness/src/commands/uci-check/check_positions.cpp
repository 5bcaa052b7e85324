#include "commands/uci-check/check_positions.h"

#include <set>
#include <stdexcept>

#include "movegen.h"

namespace stk::harness::ucicheck {

Position position_of(const std::string& fen) {
  Position pos;
  if (auto err = pos.set(fen)) throw std::logic_error("built-in position '" + fen + "': " + *err);
  return pos;
}

Move random_legal_move(const Position& pos, SplitMix& rng) {
  MoveList list(pos);
  if (list.size() == 0) return Move::none();
  return list.begin()[rng.below(list.size())].move;
}

Position random_walk(const std::string& fen, int plies, SplitMix& rng) {
  Position pos = position_of(fen);
  for (int i = 0; i < plies; ++i) {
    Move m = random_legal_move(pos, rng);
    if (m == Move::none()) break;
    pos.make_move(m);
  }
  return position_of(pos.fen());  // a fresh position: no history of the walk
}

std::vector<CheckPosition> pv_positions(std::uint64_t seed) {
  // Mate lengths are Stockfish 15.1's at depth 30; the checks need none of them (they hold a PV
  // to the score the engine itself prints), they say why each position is here.
  const std::vector<CheckPosition> base = {
      {"start", Position::kStartFen, "opening"},
      {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
       "tactical, castling both ways"},
      {"italian-pins", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
       "tactical middlegame"},
      {"promotion-race", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
       "capture-promotions"},
      {"mate1-backrank", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "mate in 1"},
      {"mate1-scholar", "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
       "mate in 1 among many moves"},
      {"mate2-rooks", "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", "mate in 2"},
      {"mate3-queen", "8/8/8/3Q4/6k1/8/5K2/8 w - - 4 3", "mate in 3"},
      {"mate4-queen", "8/8/8/3Q4/5k2/8/8/4K3 w - - 2 2", "mate in 4"},
      {"mate-queen-long", "8/8/8/8/8/4k3/8/4K2Q w - - 0 1", "mate in 5-6"},
      {"mated1", "7k/1R6/8/8/8/8/R7/6K1 b - - 1 1", "side to move mated in 1"},
      {"mated2", "8/8/8/4Q3/6k1/8/5K2/8 b - - 5 3", "side to move mated in 2"},
      {"mated3", "8/8/8/3Q4/5k2/8/5K2/8 b - - 3 2", "side to move mated in 3"},
      {"checkmated-root", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1",
       "no legal move, in check: bestmove 0000 or (none)"},
      {"stalemated-root", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
       "no legal move, stalemate: bestmove 0000 or (none)"},
  };
  std::vector<CheckPosition> out;
  std::set<std::string> seen;
  auto add = [&](const CheckPosition& p) {
    if (seen.insert(p.fen).second) out.push_back(p);
  };
  for (const CheckPosition& p : base) {
    add(p);
    add({p.id + "-mirror", position_of(p.fen).mirrored().fen(), p.note + ", colours mirrored"});
  }
  SplitMix rng(seed);
  for (int i = 1; i <= 2; ++i) {
    Position pos = random_walk(Position::kStartFen, 8 + rng.uniform(0, 9), rng);
    add({"random-walk-" + std::to_string(i), pos.fen(),
         "seeded random walk (seed " + std::to_string(seed) + ")"});
  }
  return out;
}

}  // namespace stk::harness::ucicheck
