// Positions the PV scenarios search: the start, tactical middlegames, forced mates of several
// lengths for the side to move and against it, positions without a legal move, each with its
// colour mirror (both colours to move), plus seeded random-walk positions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/splitmix.h"
#include "position.h"

namespace stk::harness::ucicheck {

struct CheckPosition {
  std::string id;
  std::string fen;
  std::string note;  // what it exercises
};

std::vector<CheckPosition> pv_positions(std::uint64_t seed);

// The position after `plies` seeded random legal moves from `fen` (fewer if the game ends).
Position random_walk(const std::string& fen, int plies, SplitMix& rng);

// A legal move chosen by `rng` (the random mover of the game scenarios); none if there is none.
Move random_legal_move(const Position& pos, SplitMix& rng);

// Sets `fen`, throwing std::logic_error when a built-in position is wrong.
Position position_of(const std::string& fen);

}  // namespace stk::harness::ucicheck
