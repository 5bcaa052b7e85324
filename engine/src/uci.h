// UCI front end: reads commands from a stream, answers on another.
#pragma once

#include <iosfwd>

namespace stk {

// Runs the UCI loop until "quit" or end of input. Returns the process exit code.
int uci_loop(std::istream& in, std::ostream& out);

}  // namespace stk
