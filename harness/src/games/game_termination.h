// How a game ended by the rules, as the result files record it (match_results/termination.h):
// shared by match and datagen, so that both count the same names.
#pragma once

#include "match_results/termination.h"
#include "positions/seeded_games.h"

namespace stk::harness {

// Checkmate, stalemate, repetition, fifty moves, insufficient material; a game stopped at a ply
// cap (MaxPlies) is adjudicated.
match::Termination rules_termination(fhgen::GameEnd end);

}  // namespace stk::harness
