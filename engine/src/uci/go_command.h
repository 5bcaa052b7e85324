// "go ..." parsed strictly: the search limits, "go perft N", or why the command is refused.
#pragma once

#include <istream>
#include <string>

#include "search/search.h"

namespace stk::uci {

struct GoCommand {
  // The limits the search starts with. "ponder" sets limits.infinite too: no clock counts while
  // the engine ponders (uci.cpp applies the go's own clock from "ponderhit").
  search::Limits limits;
  bool ponder = false;    // "go ponder": searched in ponder mode until "ponderhit" or "stop"
  bool infinite = false;  // the word "infinite": searched until "stop" (after a ponderhit too)
  int perft_depth = -1;   // "go perft N": N >= 0
  std::string error;      // non-empty: refused (unknown or malformed argument); nothing is searched
};

// Reads the arguments after "go". Every token must be understood: a misspelt parameter, a
// missing or non-integer value refuses the whole command (it never turns into an unlimited
// search). A zero depth, nodes or movetime asks for the least search: depth 1. A negative clock
// (some GUIs send one after a flag fall) counts as 0.
GoCommand parse_go(std::istream& args);

// The limits that hold once a "go ponder" becomes a normal search (at "ponderhit"): the go's own,
// clock and movetime included, and no longer infinite unless the word "infinite" was given.
search::Limits limits_after_ponderhit(const GoCommand& go);

}  // namespace stk::uci
