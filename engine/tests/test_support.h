// Shared fixtures for the unit and property tests.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "movegen.h"
#include "position.h"

namespace stk::test {

// Positions that exercise castling, en passant, promotions, pins and checks.
inline const std::vector<std::string>& tricky_fens() {
  static const std::vector<std::string> fens = {
      Position::kStartFen,
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
      "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
      "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
      "8/8/8/2k5/3Pp3/8/8/4K2Q b - d3 0 1",
      "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
  };
  return fens;
}

// Plays `choices` as indices into the legal move list (modulo its size) from `fen`,
// stopping at mate/stalemate. Returns the moves played.
inline std::vector<Move> play_random(Position& pos, const std::vector<int>& choices) {
  std::vector<Move> played;
  for (int c : choices) {
    MoveList list(pos);
    if (list.size() == 0) break;
    Move m = list.begin()[std::size_t(c) % list.size()].move;
    pos.make_move(m);
    played.push_back(m);
  }
  return played;
}

// Seeded random games from the tricky set: calls visit(pos, legal moves) before each of up to
// `plies` random moves of each of `games` games.
template <class Visit>
void walk_random_games(std::uint32_t seed, int games, int plies, Visit visit) {
  std::mt19937 rng(seed);
  for (int game = 0; game < games; ++game) {
    Position pos;
    pos.set(tricky_fens()[std::size_t(game) % tricky_fens().size()]);
    for (int ply = 0; ply < plies; ++ply) {
      MoveList list(pos);
      if (list.size() == 0) break;
      visit(pos, list);
      pos.make_move(list.begin()[rng() % list.size()].move);
    }
  }
}

}  // namespace stk::test
