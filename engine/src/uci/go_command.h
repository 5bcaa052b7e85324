// "go ..." parsed strictly: the search limits, "go perft N", or why the command is refused.
#pragma once

#include <istream>
#include <string>

#include "search/search.h"

namespace stk::uci {

struct GoCommand {
  search::Limits limits;
  int perft_depth = -1;  // "go perft N": N >= 0
  std::string error;     // non-empty: refused (unknown or malformed argument); nothing is searched
};

// Reads the arguments after "go". Every token must be understood: a misspelt parameter, a
// missing or non-integer value refuses the whole command (it never turns into an unlimited
// search). A zero depth, nodes or movetime asks for the least search: depth 1. A negative clock
// (some GUIs send one after a flag fall) counts as 0.
GoCommand parse_go(std::istream& args);

}  // namespace stk::uci
