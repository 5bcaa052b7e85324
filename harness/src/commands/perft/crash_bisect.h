// Narrows a perft that crashed or hung to the move line after which it does, one child process
// per probe (the subject may crash again at every step).
#pragma once

#include <string>

#include "commands/perft/divide_bisect.h"
#include "commands/perft/perft_subject.h"

namespace stk::harness {

// perft(fen, depth) with `fn` crashed or hung. At each node of the line (from the root): a child
// plays the line and generates the node's moves (fn at depth 1); if that crashes, the node is
// found. Otherwise each move's subtree (depth - plies - 1) runs in its own child; the first that
// crashes or hangs extends the line. Each child gets `timeout_s`.
BisectResult bisect_crash(const std::string& fen, int depth, PerftFn fn, double timeout_s);

}  // namespace stk::harness
