// The engine's NNUE entry points: the active network (UCI EvalFile / Use NNUE) and evaluation.
#pragma once

#include <memory>
#include <string>

#include "nnue/accumulator.h"
#include "nnue/network.h"
#include "position.h"

namespace stk::nnue {

// Loads `path` as the active network. On failure returns false, sets *error (file, field, byte
// offset, value found) and leaves the previously active network in place, untouched.
bool load_network(const std::string& path, bool allow_trailing, std::string* error);
// Makes `net` the active network (tests and tools); null unloads.
void set_network(std::shared_ptr<const Network> net);
// The active network, or null when none is loaded. Holding the pointer keeps it alive.
std::shared_ptr<const Network> network();

// "Use NNUE": whether the search should evaluate with the network (default true).
void set_enabled(bool on);
bool enabled();
// A network is loaded and enabled.
bool active();

// Side-to-move relative centipawns from the stack's top entry (pos is the current position).
inline int evaluate(const Position& pos, AccumulatorStack& stack) {
  return stack.evaluate(pos).eval;
}

}  // namespace stk::nnue
