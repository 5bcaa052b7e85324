// Classical evaluation: tapered material + piece-square tables, mobility, pawn structure,
// king safety. Side-to-move relative centipawns.
#pragma once

#include "position.h"

namespace stk::eval {

int classical(const Position& pos);

// Game phase 0 (bare kings and pawns) .. 24 (all minor and major pieces on the board).
int game_phase(const Position& pos);

}  // namespace stk::eval
