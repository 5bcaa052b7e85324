#include "perft.h"

#include "movegen.h"

namespace stk {

std::uint64_t perft(Position& pos, int depth) {
  if (depth <= 0) return 1;
  ExtMove list[256];
  ExtMove* last = generate<LEGAL>(pos, list);
  if (depth == 1) return std::uint64_t(last - list);
  std::uint64_t nodes = 0;
  for (ExtMove* it = list; it != last; ++it) {
    pos.make_move(it->move);
    nodes += perft(pos, depth - 1);
    pos.unmake_move();
  }
  return nodes;
}

std::vector<std::pair<Move, std::uint64_t>> perft_divide(Position& pos, int depth) {
  std::vector<std::pair<Move, std::uint64_t>> out;
  for (const ExtMove& e : MoveList(pos)) {
    pos.make_move(e.move);
    out.emplace_back(e.move, perft(pos, depth - 1));
    pos.unmake_move();
  }
  return out;
}

}  // namespace stk
