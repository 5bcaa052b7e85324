// "position startpos|fen <FEN> [moves m1 m2 ...]" parsed into a position, or why it is refused.
#pragma once

#include <istream>
#include <optional>
#include <string>

#include "position.h"

namespace stk::uci {

// Reads the arguments after "position". On success `out` is the position and the result is
// empty; otherwise the reason (bad FEN, illegal move and where) and `out` is unspecified.
std::optional<std::string> parse_position(std::istream& args, Position& out);

}  // namespace stk::uci
