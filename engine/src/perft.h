// Perft: leaf-node count of the legal move tree, the movegen correctness signature.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "position.h"

namespace stk {

// Bulk counting: at depth 1 the legal list size is the count (moves are never made).
std::uint64_t perft(Position& pos, int depth);
// Count per root move, in generation order.
std::vector<std::pair<Move, std::uint64_t>> perft_divide(Position& pos, int depth);

}  // namespace stk
